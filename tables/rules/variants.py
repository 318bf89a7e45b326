"""The hidden rule variants of Five Tricks: drawing them for tables, naming them, and the deal.

Terms:
    table          a numbered card table of an event (1..N; a higher number is a better table).
                   Players who do well move up to the next table, so each table's neighbours
                   are the tables just below and just above it. Here table 1 is index 0.
    variant        the rules one table secretly plays. Every table believes its rules are the
                   rules; the clash when players change tables is the point of the game. A
                   variant is a direction, a trump suit, and whether trumps may be played at
                   any time.
    direction      *ace high*: the highest card wins a trick and the ace ranks above the 7;
                   *ace low*: the lowest card wins and the ace ranks below the 2. Either way the
                   ace is the strongest card of its suit; what flips is the order of 2..7.
    trump          the suit that beats every other suit: a trump played into a trick wins it,
                   whatever its rank, unless a stronger trump is played too.
    trump-anytime  a stronger trump rule: a trump may be played at any turn, even by a player
                   who could follow suit. Without it (a *plain* variant) a trump may only be
                   played by someone who has no card of the suit that was led. It is the most
                   disruptive difference, so only a share of the tables get it (at most one in
                   five by default, see ``max_anytime_tables``).
    clause         one way a table's rules can differ besides direction and trump. The
                   classic one is trump-anytime; the others come from the other card games
                   of the source documents:
                     *no trump* (Slim Tricks' "sang", Sinker): no suit beats another, the
                       led suit's best card takes every trick. Gentle.
                     *trumps broken* (Spades): a trump may not be led until a trump has
                       been played to an earlier trick. Gentle (subtle).
                     *must overtake* (solo Spades): a player must beat the best card of the
                       suit played so far when they can. Disruptive (very visible).
                     *fewest wins* (Slim Tricks' misère, Sinker's low bids): the player with
                       the fewest tricks wins the game. Disruptive, the richest to debrief.
    combination    only clauses that make a playable sheet go together: *no trump* excludes
                   trump-anytime and trumps-broken (there is no trump to play or lead), and
                   trump-anytime excludes trumps-broken (one sheet would say a trump may be
                   played at any time and that it may not be led yet: players could not tell
                   which wins). ``Variant`` refuses the others.
    difference set which clauses an event's draw may use (``DifferenceSet``): classic (trump-
                   anytime only, the default), classic + gentle, classic + disruptive, or a
                   custom checklist. ``difference_clauses`` turns one into clauses.
    disruptive share the most tables that may carry a disruptive new clause (fewest wins or
                   must overtake), as a share of the tables: floor(tables x share). Trump-
                   anytime keeps its own share, as before.
    plan           the variants of all tables of an event, table 1 first.
    neighbour rule neighbouring tables differ in direction and in trump suit, so a player
                   who moves meets the clash on the first trick and again at the first
                   trump. The draw always keeps it; ``check_variants`` flags a plan that
                   does not.
    classic set    the source tournament's own ten rule sheets for tables 1 to 10
                   (``classic_variants``), offered besides the draw.
    rule sheet     the full rules of Five Tricks written out for one variant; they live
                   in tables.rules.rule_sheets, which builds on the card facts, labels
                   and dealing here.

Card data (``winning_card_order``) uses the rank codes "A", "2" .. "7". Everything a person
reads is English marked with ``gettext_noop`` and passed through a ``translate`` callable at
call time, so Django can translate it without this module importing Django.

Standard library only: this module must stay importable without Django.
"""

from __future__ import annotations

import math
import operator
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction

from tournament.common.i18n import Translate, gettext_noop, untranslated

DECK_SIZE = 28
RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7")
MAX_CARDS_PER_PLAYER = 7
DEFAULT_ANYTIME_SHARE = 0.2
DEFAULT_DISRUPTIVE_SHARE = 0.2


class Clause(StrEnum):
    """A rule a variant may add. The values are the variant code's suffixes (and "notrump"
    stands in the trump's place)."""

    TRUMP_ANYTIME = "anytime"
    NO_TRUMP = "notrump"
    TRUMPS_BROKEN = "broken"
    MUST_OVERTAKE = "overtake"
    FEWEST_WINS = "fewest"


# The clauses beyond the classic three, and how hard each hits a table.
GENTLE_CLAUSES: frozenset[Clause] = frozenset({Clause.NO_TRUMP, Clause.TRUMPS_BROKEN})
DISRUPTIVE_CLAUSES: frozenset[Clause] = frozenset({Clause.FEWEST_WINS, Clause.MUST_OVERTAKE})
NEW_CLAUSES: tuple[Clause, ...] = (
    Clause.NO_TRUMP,
    Clause.TRUMPS_BROKEN,
    Clause.MUST_OVERTAKE,
    Clause.FEWEST_WINS,
)
# Pairs that cannot share a rule sheet (see "combination" above).
EXCLUDED_PAIRS: tuple[frozenset[Clause], ...] = (
    frozenset({Clause.NO_TRUMP, Clause.TRUMP_ANYTIME}),
    frozenset({Clause.NO_TRUMP, Clause.TRUMPS_BROKEN}),
    frozenset({Clause.TRUMP_ANYTIME, Clause.TRUMPS_BROKEN}),
)


class DifferenceSet(StrEnum):
    CLASSIC = "classic"
    GENTLE = "gentle"
    DISRUPTIVE = "disruptive"
    CUSTOM = "custom"


def difference_clauses(difference_set: str, custom: Iterable[str] = ()) -> frozenset[Clause]:
    """The new clauses an event's draw may use: none for classic, the gentle or disruptive
    pair for those sets, and the checked ones (from ``NEW_CLAUSES``) for custom."""
    chosen = DifferenceSet(difference_set)
    if chosen is DifferenceSet.GENTLE:
        return GENTLE_CLAUSES
    if chosen is DifferenceSet.DISRUPTIVE:
        return DISRUPTIVE_CLAUSES
    if chosen is DifferenceSet.CUSTOM:
        clauses = frozenset(Clause(value) for value in custom)
        if not clauses <= set(NEW_CLAUSES):
            raise ValueError(f"not a new clause: {sorted(clauses - set(NEW_CLAUSES))}")
        return clauses
    return frozenset()


def translated(translate: Translate, message: str, **values: object) -> str:
    """``message`` (marked with ``gettext_noop``) translated, then filled in with ``values``."""
    # Translate the template first, then fill it in: translators see the placeholders, and
    # a bare message is left alone so a literal "%" in a translation cannot break it.
    text = translate(message)
    return text % values if values else text


class Suit(StrEnum):
    HEARTS = "hearts"
    DIAMONDS = "diamonds"
    CLUBS = "clubs"
    SPADES = "spades"

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]


_SUIT_SYMBOLS: dict[Suit, str] = {
    Suit.HEARTS: "♥",
    Suit.DIAMONDS: "♦",
    Suit.CLUBS: "♣",
    Suit.SPADES: "♠",
}

_SUIT_NAMES: dict[Suit, str] = {
    # Translators: a suit name, used inside sentences such as "The trump suit is %(suit)s".
    Suit.HEARTS: gettext_noop("hearts"),
    Suit.DIAMONDS: gettext_noop("diamonds"),
    Suit.CLUBS: gettext_noop("clubs"),
    Suit.SPADES: gettext_noop("spades"),
}

_HIGH = "high"
_LOW = "low"
_ANYTIME = "anytime"


@dataclass(frozen=True, order=True)
class Variant:
    """One table's hidden rules. Ordering is by direction, trump, anytime, then the new
    clauses. A no-trump variant keeps ``trump`` at hearts, a placeholder nobody reads, so
    two no-trump variants with the same clauses are equal."""

    ace_high: bool
    trump: Suit
    trump_anytime: bool = False
    no_trump: bool = False
    trumps_broken: bool = False
    must_overtake: bool = False
    fewest_wins: bool = False

    def __post_init__(self) -> None:
        flags = (
            self.ace_high,
            self.trump_anytime,
            self.no_trump,
            self.trumps_broken,
            self.must_overtake,
            self.fewest_wins,
        )
        if not all(isinstance(flag, bool) for flag in flags):
            raise TypeError("a variant's direction and clauses must be bools")
        clauses = self.clauses
        for pair in EXCLUDED_PAIRS:
            if pair <= clauses:
                names = " and ".join(sorted(pair))
                raise ValueError(f"a variant cannot combine {names}")
        # Accept the stored string ("hearts") so a database value round-trips, but keep the
        # field a Suit so comparisons and symbols always work.
        trump = Suit.HEARTS if self.no_trump else Suit(self.trump)
        object.__setattr__(self, "trump", trump)

    @property
    def clauses(self) -> frozenset[Clause]:
        """The clauses this variant adds to direction and trump."""
        flags = {
            Clause.TRUMP_ANYTIME: self.trump_anytime,
            Clause.NO_TRUMP: self.no_trump,
            Clause.TRUMPS_BROKEN: self.trumps_broken,
            Clause.MUST_OVERTAKE: self.must_overtake,
            Clause.FEWEST_WINS: self.fewest_wins,
        }
        return frozenset(clause for clause, on in flags.items() if on)

    @property
    def trump_key(self) -> Suit | None:
        """The trump suit, or None at a no-trump table: what neighbours must not share."""
        return None if self.no_trump else self.trump

    @property
    def disruptive(self) -> bool:
        """Whether the variant carries a disruptive new clause (capped per event)."""
        return bool(self.clauses & DISRUPTIVE_CLAUSES)

    @property
    def code(self) -> str:
        """A short, stable name such as "high-hearts", "low-clubs-anytime" or
        "low-notrump-fewest"; the classic variants keep their codes."""
        parts = [_HIGH if self.ace_high else _LOW]
        parts.append(Clause.NO_TRUMP.value if self.no_trump else self.trump.value)
        parts.extend(clause.value for clause in _SUFFIXES if clause in self.clauses)
        return "-".join(parts)

    @classmethod
    def from_code(cls, code: str) -> Variant:
        """The variant named by ``code``; ValueError for anything ``code`` never produces."""
        if not isinstance(code, str):
            raise ValueError(f"a variant code must be a string, got {code!r}")
        parts = code.split("-")
        trumps = {suit.value for suit in Suit} | {Clause.NO_TRUMP.value}
        order = [clause.value for clause in _SUFFIXES]
        suffixes = parts[2:]
        valid = (
            len(parts) >= 2
            and parts[0] in (_HIGH, _LOW)
            and parts[1] in trumps
            and all(suffix in order for suffix in suffixes)
            # In the one order ``code`` writes them, each once.
            and [order.index(suffix) for suffix in suffixes]
            == sorted({order.index(suffix) for suffix in suffixes})
        )
        if not valid:
            raise ValueError(f"not a variant code: {code!r}")
        no_trump = parts[1] == Clause.NO_TRUMP.value
        try:
            return cls(
                ace_high=parts[0] == _HIGH,
                trump=Suit.HEARTS if no_trump else Suit(parts[1]),
                no_trump=no_trump,
                **{_FIELD_BY_CLAUSE[Clause(suffix)]: True for suffix in suffixes},
            )
        except ValueError as error:
            raise ValueError(f"not a variant code: {code!r} ({error})") from None

    def with_clause(self, clause: Clause) -> Variant:
        """This variant with one more clause (ValueError if they cannot combine)."""
        return replace(self, **{_FIELD_BY_CLAUSE[clause]: True})

    @property
    def winning_card_order(self) -> list[str]:
        """Ranks from the card that wins a trick to the weakest; the ace always comes first."""
        numbers = list(RANKS[1:])
        if self.ace_high:
            numbers.reverse()
        return [RANKS[0], *numbers]


# The order of the code's suffixes after the trump; fixed, so a code names one variant.
_SUFFIXES: tuple[Clause, ...] = (
    Clause.TRUMP_ANYTIME,
    Clause.TRUMPS_BROKEN,
    Clause.MUST_OVERTAKE,
    Clause.FEWEST_WINS,
)
_FIELD_BY_CLAUSE: dict[Clause, str] = {
    Clause.TRUMP_ANYTIME: "trump_anytime",
    Clause.NO_TRUMP: "no_trump",
    Clause.TRUMPS_BROKEN: "trumps_broken",
    Clause.MUST_OVERTAKE: "must_overtake",
    Clause.FEWEST_WINS: "fewest_wins",
}


# Plain variants first: they are the base game, and a plan uses them most.
ALL_VARIANTS: tuple[Variant, ...] = tuple(
    Variant(ace_high=ace_high, trump=suit, trump_anytime=anytime)
    for anytime in (False, True)
    for ace_high in (True, False)
    for suit in Suit
)
# Every playable variant, the classic ones first: what the organizer may set by hand.
EVERY_VARIANT: tuple[Variant, ...] = ALL_VARIANTS + tuple(
    variant
    for fewest in (False, True)
    for overtake in (False, True)
    for no_trump, broken, anytime in (
        (True, False, False),
        (False, True, False),
        (False, False, False),
        (False, False, True),
    )
    for ace_high in (True, False)
    for suit in ((Suit.HEARTS,) if no_trump else tuple(Suit))
    if (
        variant := Variant(
            ace_high=ace_high,
            trump=suit,
            trump_anytime=anytime,
            no_trump=no_trump,
            trumps_broken=broken,
            must_overtake=overtake,
            fewest_wins=fewest,
        )
    )
    not in ALL_VARIANTS
)
_PLAIN_VARIANT_COUNT = sum(not variant.trump_anytime for variant in ALL_VARIANTS)
_ANYTIME_VARIANT_COUNT = len(ALL_VARIANTS) - _PLAIN_VARIANT_COUNT


# --- labels -----------------------------------------------------------------------------


def suit_name(suit: Suit, translate: Translate = untranslated) -> str:
    """The suit's name, e.g. "hearts"."""
    return translate(_SUIT_NAMES[Suit(suit)])


def direction_label(variant: Variant, translate: Translate = untranslated) -> str:
    """Return "Ace high" or "Ace low"."""
    if variant.ace_high:
        return translate(gettext_noop("Ace high"))
    return translate(gettext_noop("Ace low"))


# Each new clause's short name for the organizer's labels, and its one-line meaning for
# the reveal (and the debrief): what a player from another table needs to hear.
_CLAUSE_NAMES: dict[Clause, str] = {
    Clause.TRUMP_ANYTIME: gettext_noop("trump any time"),
    Clause.NO_TRUMP: gettext_noop("no trump"),
    Clause.TRUMPS_BROKEN: gettext_noop("trumps led only once broken"),
    Clause.MUST_OVERTAKE: gettext_noop("must play higher"),
    Clause.FEWEST_WINS: gettext_noop("fewest tricks wins"),
}
_CLAUSE_MEANINGS: dict[Clause, str] = {
    Clause.TRUMP_ANYTIME: gettext_noop("Trumps may be played at any time"),
    Clause.NO_TRUMP: gettext_noop("No trump: only the suit that was led can win a trick"),
    Clause.TRUMPS_BROKEN: gettext_noop("Trumps may not be led until someone has trumped a trick"),
    Clause.MUST_OVERTAKE: gettext_noop(
        "Must play higher: beat the best card of the suit so far if you can"
    ),
    Clause.FEWEST_WINS: gettext_noop("Fewest tricks wins the game"),
}


def clause_name(clause: Clause, translate: Translate = untranslated) -> str:
    """A clause's short name, e.g. "fewest tricks wins"."""
    return translate(_CLAUSE_NAMES[Clause(clause)])


def clause_meaning(clause: Clause, translate: Translate = untranslated) -> str:
    """A clause's one-line meaning, as the reveal shows it."""
    return translate(_CLAUSE_MEANINGS[Clause(clause)])


def variant_label(variant: Variant, translate: Translate = untranslated) -> str:
    """A one-line description for the organizer, e.g. "Ace high · ♥ hearts trump", with
    each clause after it ("Ace low · no trump · fewest tricks wins")."""
    direction = direction_label(variant, translate)
    if variant.no_trump:
        label = f"{direction} · {clause_name(Clause.NO_TRUMP, translate)}"
    else:
        values = {
            "direction": direction,
            "symbol": variant.trump.symbol,
            "suit": suit_name(variant.trump, translate),
        }
        if variant.trump_anytime:
            label = translated(
                translate,
                gettext_noop("%(direction)s · %(symbol)s %(suit)s trump · trump any time"),
                **values,
            )
        else:
            label = translated(
                translate, gettext_noop("%(direction)s · %(symbol)s %(suit)s trump"), **values
            )
    extras = [clause for clause in _SUFFIXES[1:] if clause in variant.clauses]
    return " · ".join([label, *(clause_name(clause, translate) for clause in extras)])


def rule_lines(variant: Variant, translate: Translate = untranslated) -> list[str]:
    """The reveal's lines, one per way tables differ: direction, trump, then each clause.

    E.g. ["Ace low: the lowest card wins (the ace beats the 2)", "Trump: hearts"]; a
    no-trump table says "Trump: none", and every clause adds its meaning.
    """
    if variant.ace_high:
        direction = gettext_noop("Ace high: the highest card wins (the ace beats the 7)")
    else:
        direction = gettext_noop("Ace low: the lowest card wins (the ace beats the 2)")
    lines = [translate(direction)]
    if variant.no_trump:
        # A short trump line, so every card's lines sit alike; the meaning follows.
        lines.append(translate(gettext_noop("Trump: none")))
        lines.append(clause_meaning(Clause.NO_TRUMP, translate))
    else:
        lines.append(
            translated(
                translate,
                gettext_noop("Trump: %(suit)s"),
                suit=suit_name(variant.trump, translate),
            )
        )
    lines.extend(
        clause_meaning(clause, translate) for clause in _SUFFIXES if clause in variant.clauses
    )
    return lines


# --- drawing variants -------------------------------------------------------------------


def _checked_count(table_count: int) -> int:
    count = operator.index(table_count)
    if count < 0:
        raise ValueError(f"table_count must not be negative, got {count}")
    return count


def _checked_share(anytime_share: float) -> Fraction:
    share = float(anytime_share)
    if not 0.0 <= share <= 1.0:  # also rejects NaN
        raise ValueError(f"anytime_share must be between 0 and 1, got {anytime_share!r}")
    # Exact decimal arithmetic: 100 * 0.29 is 28.999... in floats and would lose a table.
    return Fraction(repr(share))


def max_anytime_tables(table_count: int, anytime_share: float = DEFAULT_ANYTIME_SHARE) -> int:
    """How many tables may play trump-anytime: floor(table_count * share).

    With the default share that is at most one table in five, so none below five tables.
    """
    return math.floor(_checked_count(table_count) * _checked_share(anytime_share))


def _distinct_available(table_count: int, share: Fraction) -> int:
    anytime_allowed = math.floor(table_count * share)
    return _PLAIN_VARIANT_COUNT + min(_ANYTIME_VARIANT_COUNT, anytime_allowed)


def _anytime_tables_to_draw(table_count: int, share: Fraction) -> int:
    # The draw fills the anytime quota (the source tournament had two such tables in ten),
    # but never beyond half the tables: plain tables are the reference game, and an even
    # mix is what lets every table differ when there are up to 16 of them.
    return min(math.floor(table_count * share), table_count // 2)


# The draw repeats a cycle of the 8 plain variants (direction and trump), see draw_variants.
_CYCLE = 2 * len(Suit)


def _cycle(first_high: bool, suits: Sequence[Suit], offset: int) -> list[tuple[bool, Suit]]:
    """The (direction, trump) of each table of one cycle, as draw_variants lays it out."""
    return [
        (first_high == (i % 2 == 0), suits[(i // 2 + (offset if i % 2 else 0)) % len(suits)])
        for i in range(_CYCLE)
    ]


def _anytime_positions(table_count: int, count: int, rng: random.Random) -> set[int]:
    """Which tables play trump-anytime: ``count`` of them, spread along the plan.

    Table i plays cycle slot i % 8. For every variant's uses to stay even, each slot gets
    its fair number of anytime tables, and the extra ones go first to the slots that
    occur once more than the others (the plan's last, partial cycle); that is also what
    lets every table differ when there are up to 16 of them. Within those limits each
    pick takes the free table nearest an evenly spaced target, avoiding tables next to an
    earlier pick when it can.
    """
    per_slot, extra = divmod(count, _CYCLE)
    long_slots = table_count % _CYCLE
    raises_left = {True: min(extra, long_slots), False: max(extra - long_slots, 0)}
    used = [0] * _CYCLE

    def has_room(slot: int) -> bool:
        if used[slot] != per_slot:
            return used[slot] < per_slot
        return raises_left[slot < long_slots] > 0

    chosen: set[int] = set()
    phase = rng.random()
    for pick in range(count):
        target = (pick + phase) * table_count / count
        free = [i for i in range(table_count) if i not in chosen and has_room(i % _CYCLE)]
        best = min(free, key=lambda i: (i - 1 in chosen or i + 1 in chosen, abs(i + 0.5 - target)))
        chosen.add(best)
        slot = best % _CYCLE
        if used[slot] == per_slot:
            raises_left[slot < long_slots] -= 1
        used[slot] += 1
    return chosen


def draw_variants(
    table_count: int,
    seed: int,
    anytime_share: float = DEFAULT_ANYTIME_SHARE,
    *,
    clauses: Iterable[str] = (),
    disruptive_share: float = DEFAULT_DISRUPTIVE_SHARE,
) -> list[Variant]:
    """Draw a variant for each table (index 0 is table 1); the same seed gives the same plan.

    Guarantees:
      * neighbouring tables differ in direction (ace high and ace low alternate) and in
        trump suit, so a player who moves meets the clash on the very first trick and
        again the first time someone trumps; in particular they never share a variant;
      * every table has its own variant when there are enough to go round: the 8 plain
        variants plus as many anytime ones as ``max_anytime_tables`` allows;
      * at most ``max_anytime_tables`` tables play trump-anytime. The draw uses that whole
        quota, capped at half the tables;
      * when variants must repeat, each is used as evenly as possible and the same variant
        never comes back within 8 tables.

    How: the tables repeat a cycle of the 8 (direction, trump) pairs. Its even slots take
    the four suits in a shuffled order, its odd slots the same order shifted by two or
    three places: a shift of 0 would repeat the trump of the table before, a shift of 1
    the trump of the table after. A pair then comes back exactly every 8 tables. Anytime
    tables are chosen on top of that cycle (``_anytime_positions``).

    With ``clauses`` (new clauses from ``difference_clauses``), they are laid on top of
    that plan by ``add_clauses``, from the same seed; without them the plan is exactly the
    classic draw.

    Hand edits may break the neighbour rule (``redraw_variant`` keeps it whenever the
    neighbours leave a variant that can); ``check_variants`` says where.
    """
    chosen = _checked_clauses(clauses)
    disruptive = _checked_share(disruptive_share)
    n = _checked_count(table_count)
    share = _checked_share(anytime_share)
    if n == 0:
        return []
    rng = random.Random(seed)

    first_high = rng.random() < 0.5
    suits = list(Suit)
    rng.shuffle(suits)
    offset = rng.choice((2, 3))
    cycle = _cycle(first_high, suits, offset)
    anytime = _anytime_positions(n, _anytime_tables_to_draw(n, share), rng)
    plan = [Variant(*cycle[i % _CYCLE], trump_anytime=i in anytime) for i in range(n)]
    return add_clauses(plan, seed, clauses=chosen, disruptive_share=float(disruptive))


def _checked_clauses(clauses: Iterable[str]) -> frozenset[Clause]:
    chosen = frozenset(Clause(clause) for clause in clauses)
    if not chosen <= set(NEW_CLAUSES):
        raise ValueError(f"only new clauses can be drawn, not {sorted(chosen - set(NEW_CLAUSES))}")
    return chosen


def max_disruptive_tables(
    table_count: int, disruptive_share: float = DEFAULT_DISRUPTIVE_SHARE
) -> int:
    """How many tables may carry a disruptive new clause: floor(table_count * share)."""
    return math.floor(_checked_count(table_count) * _checked_share(disruptive_share))


def clause_targets(
    table_count: int,
    clauses: Iterable[str],
    disruptive_share: float = DEFAULT_DISRUPTIVE_SHARE,
) -> dict[Clause, int]:
    """How many tables the draw gives each new clause, before placement limits.

    A gentle clause goes to one table in four (at least one from 2 tables on: with one
    table nobody ever meets it). The disruptive quota, ``max_disruptive_tables``, is
    shared evenly by the disruptive clauses chosen, fewest-wins first.
    """
    n = _checked_count(table_count)
    chosen = _checked_clauses(clauses)
    if n < 2:
        return {clause: 0 for clause in NEW_CLAUSES if clause in chosen}
    targets = {
        clause: max(1, n // 4) for clause in NEW_CLAUSES if clause in GENTLE_CLAUSES & chosen
    }
    disruptive = [
        clause for clause in (Clause.FEWEST_WINS, Clause.MUST_OVERTAKE) if clause in chosen
    ]
    if disruptive:
        each, extra = divmod(max_disruptive_tables(n, disruptive_share), len(disruptive))
        for position, clause in enumerate(disruptive):
            targets[clause] = each + (position < extra)
    return targets


# Rarest first: the order add_clauses places the clauses in, and redraw_variant fills them.
_PLACING_ORDER: tuple[Clause, ...] = (
    Clause.FEWEST_WINS,
    Clause.MUST_OVERTAKE,
    Clause.NO_TRUMP,
    Clause.TRUMPS_BROKEN,
)


def _fits(variant: Variant, clause: Clause) -> bool:
    try:
        variant.with_clause(clause)
    except ValueError:
        return False
    return True


def add_clauses(
    variants: Sequence[Variant],
    seed: int,
    *,
    clauses: Iterable[str],
    disruptive_share: float = DEFAULT_DISRUPTIVE_SHARE,
) -> list[Variant]:
    """``variants`` with new clauses laid on some tables; the same inputs, the same plan.

    Guarantees, on top of the plan's own:
      * a table gets at most one new clause, and only one it can combine with (no trump
        and trumps-broken go to tables without trump-anytime);
      * no two neighbouring tables get the same new clause, so whoever moves away from
        one meets tables without it; in particular neighbours are never both no-trump
        (the neighbour rule's "another trump" holds with "none" as a trump);
      * at most ``max_disruptive_tables`` tables carry a disruptive clause;
      * the plan never has fewer distinct variants than before: a table whose variant is
        its own never becomes another's twin (a no-trump table easily could: there is
        one no-trump variant per direction and clauses);
      * each clause gets ``clause_targets`` tables when such tables are free, spread along
        the plan from a seeded starting point, preferring tables whose neighbours have no
        new clause yet and a result no other table plays.
    The clauses are placed rarest first: fewest wins, must overtake, no trump, trumps broken.
    """
    plan = list(variants)
    chosen = _checked_clauses(clauses)
    targets = clause_targets(len(plan), chosen, disruptive_share)
    # A string seed: this stream never disturbs the classic draw's, so the classic plan
    # underneath stays the same whatever clauses are chosen.
    rng = random.Random(f"clauses:{seed}")
    taken: dict[int, Clause] = {}
    for clause in _PLACING_ORDER:
        count = targets.get(clause, 0)
        phase = rng.random()
        for pick in range(count):
            target = (pick + phase) * len(plan) / count
            free = [
                i
                for i in range(len(plan))
                if i not in taken
                and _fits(plan[i], clause)
                and taken.get(i - 1) != clause
                and taken.get(i + 1) != clause
                and not (plan.count(plan[i]) == 1 and plan[i].with_clause(clause) in plan)
            ]
            if not free:
                break

            def preference(i: int, clause: Clause = clause, target: float = target) -> tuple:
                result = plan[i].with_clause(clause)
                return (
                    result in plan,
                    i - 1 in taken or i + 1 in taken,
                    abs(i + 0.5 - target),
                )

            best = min(free, key=preference)
            plan[best] = plan[best].with_clause(clause)
            taken[best] = clause
    return plan


def _clashes(variant: Variant, neighbours: Sequence[Variant]) -> int:
    """How often ``variant`` shares a direction or a trump with these neighbours."""
    return sum(
        (other.ace_high == variant.ace_high) + (other.trump_key == variant.trump_key)
        for other in neighbours
    )


def _new_clause(variant: Variant) -> Clause | None:
    """The variant's new clause (a drawn table has at most one), or None."""
    extra = [clause for clause in NEW_CLAUSES if clause in variant.clauses]
    return extra[0] if extra else None


def _wanted_clauses(
    plan: Sequence[Variant],
    index: int,
    chosen: frozenset[Clause],
    disruptive_share: float,
) -> list[Clause]:
    """The new clauses a redrawn table should carry so the plan keeps the draw's shares,
    best first.

    The rest of the plan is counted against ``clause_targets``: a clause still short of
    its target is wanted, the table's own clause first (a redraw should not lose it),
    then the rarest (the order ``add_clauses`` places them in).
    """
    others = [v for j, v in enumerate(plan) if j != index]
    targets = clause_targets(len(plan), chosen, disruptive_share)
    short = [
        clause
        for clause in _PLACING_ORDER
        if sum(clause in v.clauses for v in others) < targets.get(clause, 0)
    ]
    own = _new_clause(plan[index])
    return sorted(short, key=lambda clause: clause != own)


def redraw_variant(
    variants: Sequence[Variant],
    index: int,
    seed: int,
    anytime_share: float = DEFAULT_ANYTIME_SHARE,
    *,
    clauses: Iterable[str] = (),
    disruptive_share: float = DEFAULT_DISRUPTIVE_SHARE,
) -> Variant:
    """A new variant for the table at ``index``; the same inputs give the same answer.

    Always differs from the table's current variant and its neighbours', and never takes
    the plan over its anytime limit. Among the rest it prefers, in order: the neighbour
    rule of ``draw_variants`` (another direction and another trump than each neighbour;
    hand edits can leave neighbours that no variant can both differ from, so it counts
    the clashes and takes the fewest), the new clause the plan wants there (see below),
    a variant no other table uses (or else the fewest), and the one whose nearest other
    use is farthest away.

    With ``clauses`` (the event's difference set, as for ``draw_variants``) the table may
    carry one of them, as a drawn table may: never one a neighbour has, and never a
    disruptive one beyond ``max_disruptive_tables`` over the whole plan. It takes the
    first clause ``_wanted_clauses`` lists that it can (its own while the rest of the
    plan lacks it), else none, else one the plan has enough of. A no-trump table cannot
    keep its clause: the only other no-trump variant faces the other direction, which
    its neighbours play. Without ``clauses`` it picks among the classic variants only.
    """
    plan = list(variants)
    share = _checked_share(anytime_share)
    chosen = _checked_clauses(clauses)
    disruptive_limit = max_disruptive_tables(len(plan), disruptive_share)
    if not 0 <= index < len(plan):
        raise ValueError(f"index {index} is outside the plan of {len(plan)} tables")
    current = plan[index]
    neighbours = [plan[j] for j in (index - 1, index + 1) if 0 <= j < len(plan)]
    others = plan[:index] + plan[index + 1 :]
    anytime_allowed = sum(v.trump_anytime for v in others) < math.floor(len(plan) * share)
    disruptive_allowed = sum(v.disruptive for v in others) < disruptive_limit
    # The rank of each new clause (None: no new clause) in the table's preference.
    wanted = [*_wanted_clauses(plan, index, chosen, disruptive_share), None]

    def allowed_clauses(variant: Variant) -> bool:
        extra = variant.clauses - {Clause.TRUMP_ANYTIME}
        return (
            len(extra) <= 1
            and extra <= chosen
            and (disruptive_allowed or not variant.disruptive)
            and not any(extra & other.clauses for other in neighbours)
        )

    # EVERY_VARIANT starts with ALL_VARIANTS, so without clauses the candidates (and the
    # seeded shuffle below) are exactly the classic redraw's.
    candidates = [
        v
        for v in EVERY_VARIANT
        if v != current
        and v not in neighbours
        and (anytime_allowed or not v.trump_anytime)
        and allowed_clauses(v)
    ]
    uses = Counter(others)

    def nearest_use(variant: Variant) -> int:
        distances = [abs(j - index) for j, v in enumerate(plan) if v == variant and j != index]
        return min(distances, default=len(plan) + 1)

    def clause_rank(variant: Variant) -> int:
        extra = _new_clause(variant)
        return wanted.index(extra) if extra in wanted else len(wanted)

    def preference(variant: Variant) -> tuple[int, int, int, int]:
        return (
            _clashes(variant, neighbours),
            clause_rank(variant),
            uses[variant],
            -nearest_use(variant),
        )

    # Shuffle before taking the minimum so ties are broken by the seed, not by list order.
    random.Random(seed).shuffle(candidates)
    return min(candidates, key=preference)


def _neighbour_problem(
    first: Variant, second: Variant, translate: Translate
) -> tuple[str, dict[str, object]] | None:
    """What two neighbouring tables share, as a marked message and its values, or None."""
    if first == second:
        message = gettext_noop(
            "Tables %(first)s and %(second)s are neighbours with the same variant (%(variant)s)."
        )
        return message, {"variant": variant_label(first, translate)}
    same_direction = first.ace_high == second.ace_high
    same_trump = first.trump_key == second.trump_key
    if same_trump and first.no_trump:
        if same_direction:
            message = gettext_noop(
                "Tables %(first)s and %(second)s are neighbours with the same direction "
                "(%(direction)s) and no trump: only their other rules tell them apart."
            )
        else:
            message = gettext_noop(
                "Tables %(first)s and %(second)s are neighbours that both play without a "
                "trump: players moving between them meet no clash over trumping."
            )
    elif same_direction and same_trump:
        if first.clauses - {Clause.TRUMP_ANYTIME} or second.clauses - {Clause.TRUMP_ANYTIME}:
            message = gettext_noop(
                "Tables %(first)s and %(second)s are neighbours with the same direction and "
                "trump (%(direction)s, %(symbol)s %(suit)s): only their other rules tell "
                "them apart."
            )
        else:
            message = gettext_noop(
                "Tables %(first)s and %(second)s are neighbours with the same direction and "
                "trump (%(direction)s, %(symbol)s %(suit)s): only trumping any time tells "
                "them apart."
            )
    elif same_direction:
        message = gettext_noop(
            "Tables %(first)s and %(second)s are neighbours with the same direction "
            "(%(direction)s): players moving between them meet no clash over which card "
            "wins."
        )
    elif same_trump:
        message = gettext_noop(
            "Tables %(first)s and %(second)s are neighbours with the same trump "
            "(%(symbol)s %(suit)s): players moving between them meet no clash when "
            "someone trumps."
        )
    else:
        return None
    values: dict[str, object] = {
        "direction": direction_label(first, translate),
        "symbol": first.trump.symbol,
        "suit": suit_name(first.trump, translate),
    }
    return message, values


def check_variants(
    variants: Sequence[Variant],
    anytime_share: float = DEFAULT_ANYTIME_SHARE,
    translate: Translate = untranslated,
    *,
    disruptive_share: float = DEFAULT_DISRUPTIVE_SHARE,
) -> list[str]:
    """Problems with a plan (e.g. one edited by hand), as short messages; empty when fine.

    Flags neighbours with the same variant, or the same direction or trump (the rule
    ``draw_variants`` keeps), more anytime tables than allowed, and repeats that enough
    distinct variants would have avoided. When the plan is the classic set and breaks the
    anytime limit, the message after that one says the source's sheets are the reason.
    """
    plan = list(variants)
    share = _checked_share(anytime_share)
    problems: list[str] = []

    for i in range(len(plan) - 1):
        if shared := _neighbour_problem(plan[i], plan[i + 1], translate):
            message, values = shared
            problems.append(translated(translate, message, first=i + 1, second=i + 2, **values))

    limit = math.floor(len(plan) * share)
    anytime_tables = [i + 1 for i, v in enumerate(plan) if v.trump_anytime]
    if len(anytime_tables) > limit:
        message = (
            gettext_noop(
                "No table of this event should let a trump be played at any time "
                "(share %(share)s of %(count)s tables rounds down to none), but tables "
                "%(tables)s do."
            )
            if limit == 0
            else gettext_noop(
                "The limit for tables where a trump may be played at any time is "
                "%(limit)s, but tables %(tables)s allow it."
            )
        )
        problems.append(
            translated(
                translate,
                message,
                tables=", ".join(map(str, anytime_tables)),
                limit=limit,
                share=f"{float(share):.0%}",
                count=len(plan),
            )
        )
        classic_anytime = [
            number for number in anytime_tables if _plays_classic_sheet(plan, number - 1)
        ]
        if classic_anytime:
            problems.append(
                translated(
                    translate,
                    gettext_noop(
                        "Tables %(tables)s play the classic set's trump-any-time sheets: it "
                        "reproduces the source's rule sheets as printed, whatever this "
                        "event's limit. Redraw every table to keep within it."
                    ),
                    tables=", ".join(map(str, classic_anytime)),
                )
            )

    disruptive_limit = max_disruptive_tables(len(plan), disruptive_share)
    disruptive_tables = [i + 1 for i, v in enumerate(plan) if v.disruptive]
    if len(disruptive_tables) > disruptive_limit:
        problems.append(
            translated(
                translate,
                gettext_noop(
                    "At most %(limit)s tables should play fewest-tricks-wins or must-play-"
                    "higher (share %(share)s of %(count)s tables), but tables %(tables)s do."
                ),
                limit=disruptive_limit,
                share=f"{float(_checked_share(disruptive_share)):.0%}",
                count=len(plan),
                tables=", ".join(map(str, disruptive_tables)),
            )
        )

    available = _distinct_available(len(plan), share)
    distinct = len(set(plan))
    if distinct < min(len(plan), available):
        if len(plan) <= available:
            tables_by_variant: dict[Variant, list[int]] = {}
            for i, v in enumerate(plan):
                tables_by_variant.setdefault(v, []).append(i + 1)
            for v, tables in tables_by_variant.items():
                if len(tables) > 1:
                    problems.append(
                        translated(
                            translate,
                            gettext_noop(
                                "Tables %(tables)s share one variant (%(variant)s), though "
                                "every table could have its own."
                            ),
                            tables=", ".join(map(str, tables)),
                            variant=variant_label(v, translate),
                        )
                    )
        else:
            problems.append(
                translated(
                    translate,
                    gettext_noop(
                        "Different variants in use: %(used)s of %(possible)s possible; "
                        "some repeats could be avoided."
                    ),
                    used=distinct,
                    possible=available,
                )
            )
    return problems


# --- the classic set --------------------------------------------------------------------

# The source's ten rule sheets, table 1 first, in the order they are printed. Each sheet
# states its direction twice ("Ace is the lowest card", "the lowest card wins the trick"),
# its trump suit, and, on sheets 8 and 9 only, that a trump may be played any time.
_CLASSIC_SHEETS: tuple[Variant, ...] = (
    Variant(ace_high=False, trump=Suit.HEARTS),
    Variant(ace_high=True, trump=Suit.DIAMONDS),
    Variant(ace_high=False, trump=Suit.CLUBS),
    Variant(ace_high=True, trump=Suit.HEARTS),
    Variant(ace_high=False, trump=Suit.SPADES),
    Variant(ace_high=True, trump=Suit.CLUBS),
    Variant(ace_high=False, trump=Suit.DIAMONDS),
    Variant(ace_high=True, trump=Suit.HEARTS, trump_anytime=True),
    Variant(ace_high=False, trump=Suit.CLUBS, trump_anytime=True),
    Variant(ace_high=True, trump=Suit.SPADES),
)


def _plays_classic_sheet(plan: Sequence[Variant], index: int) -> bool:
    # Only a plan that starts like the classic set counts: one table with the variant of
    # sheet 8 may just as well have been drawn.
    shown = min(len(plan), len(_CLASSIC_SHEETS))
    return index < shown and tuple(plan[:shown]) == _CLASSIC_SHEETS[:shown]


def _alternating_spread(length: int, count: int) -> set[int]:
    """``count`` of the places 0..length-1, evenly spaced, alternately even and odd."""
    chosen: set[int] = set()
    for pick in range(count):
        target = (pick + 0.5) * length / count
        free = [i for i in range(length) if i not in chosen]
        chosen.add(min(free, key=lambda i: (i % 2 != pick % 2, abs(i + 0.5 - target))))
    return chosen


def classic_variants(
    table_count: int, anytime_share: float = DEFAULT_ANYTIME_SHARE
) -> list[Variant]:
    """The source tournament's own variants: its ten rule sheets for tables 1 to 10.

    Fewer tables take the first sheets. The sheets are reproduced as printed, not fitted
    to this module's rules: they alternate ace low and ace high and never give neighbours
    the same trump, so they keep the neighbour rule, but their two trump-any-time tables
    (8 and 9) sit side by side, and they can exceed ``max_anytime_tables``: with 9 tables,
    or with an anytime share below one in five. ``check_variants`` then says why.

    Tables beyond 10 continue with the draw's rules rather than repeating the ten sheets
    (which would reuse variants that are still free and, from 19 tables, break the anytime
    limit). The plan gets the draw's number of anytime tables; the ones the sheets lack
    are spread over tables 11 and up, alternately ace low and ace high, so every anytime
    variant is used before one repeats. Each added table takes another direction and
    another trump than the one before, then the variant used least so far, then the one
    last used longest ago; ties go by ``ALL_VARIANTS`` order, so the set needs no seed.
    """
    n = _checked_count(table_count)
    plan = list(_CLASSIC_SHEETS[:n])
    added = n - len(plan)
    wanted = _anytime_tables_to_draw(n, _checked_share(anytime_share))
    missing = min(max(wanted - sum(v.trump_anytime for v in plan), 0), added)
    anytime_at = _alternating_spread(added, missing)
    for extra in range(added):
        plan.append(_next_table(plan, extra in anytime_at, extra + 1 in anytime_at))
    return plan


def _next_table(plan: Sequence[Variant], anytime: bool, next_anytime: bool) -> Variant:
    """The variant classic_variants adds after ``plan`` (see its docstring)."""
    before = plan[-1]
    uses = Counter(plan)
    last_use = {v: i for i, v in enumerate(plan)}

    def preference(v: Variant) -> tuple[bool, int, int]:
        # One table ahead: the trump taken here is one the next table cannot take, which
        # could leave an anytime table there nothing but a repeat.
        blocks = next_anytime and not _leaves_fresh_anytime(uses + Counter([v]), v)
        return (blocks, uses[v], last_use.get(v, -1))

    candidates = [
        v
        for v in ALL_VARIANTS
        if v.ace_high != before.ace_high and v.trump != before.trump and v.trump_anytime == anytime
    ]
    return min(candidates, key=preference)


def _leaves_fresh_anytime(uses: Counter[Variant], before: Variant) -> bool:
    """Whether a table after ``before`` can take one of the least used anytime variants."""
    anytime = [v for v in ALL_VARIANTS if v.trump_anytime]
    fewest = min(uses[v] for v in anytime)
    return any(
        uses[v] == fewest and v.ace_high != before.ace_high and v.trump != before.trump
        for v in anytime
    )


# --- explaining the clauses -------------------------------------------------------------


def clause_summary(
    variants: Sequence[Variant],
    clauses: Iterable[str],
    disruptive_share: float = DEFAULT_DISRUPTIVE_SHARE,
    translate: Translate = untranslated,
) -> list[str]:
    """The console's account of the new clauses in a plan, one sentence each.

    For each chosen clause, which tables play it (or why none does), then how much of the
    disruptive quota is used. Clauses on tables but not chosen (set by hand) are listed
    too. Empty for a classic plan without new clauses.
    """
    plan = list(variants)
    chosen = _checked_clauses(clauses)
    shown = [c for c in NEW_CLAUSES if c in chosen or any(c in v.clauses for v in plan)]
    lines: list[str] = []
    for clause in shown:
        tables = [i + 1 for i, v in enumerate(plan) if clause in v.clauses]
        if tables:
            lines.append(
                translated(
                    translate,
                    gettext_noop("%(clause)s: tables %(tables)s."),
                    clause=clause_meaning(clause, translate),
                    tables=", ".join(map(str, tables)),
                )
            )
        elif clause in DISRUPTIVE_CLAUSES and not max_disruptive_tables(
            len(plan), disruptive_share
        ):
            lines.append(
                translated(
                    translate,
                    gettext_noop(
                        "%(clause)s: no table, since the disruptive share (%(share)s) of "
                        "%(count)s tables rounds down to none."
                    ),
                    clause=clause_meaning(clause, translate),
                    share=f"{float(_checked_share(disruptive_share)):.0%}",
                    count=len(plan),
                )
            )
        else:
            lines.append(
                translated(
                    translate,
                    gettext_noop("%(clause)s: no table yet."),
                    clause=clause_meaning(clause, translate),
                )
            )
    if chosen & DISRUPTIVE_CLAUSES:
        lines.append(
            translated(
                translate,
                gettext_noop(
                    "Disruptive clauses at %(used)s of at most %(limit)s tables (share "
                    "%(share)s); gentle ones at one table in four, never at two "
                    "neighbours."
                ),
                used=sum(v.disruptive for v in plan),
                limit=max_disruptive_tables(len(plan), disruptive_share),
                share=f"{float(_checked_share(disruptive_share)):.0%}",
            )
        )
    elif chosen:
        lines.append(
            translate(gettext_noop("Gentle clauses at one table in four, never at two neighbours."))
        )
    return lines
