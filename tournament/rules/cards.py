"""The card facts of Five Tricks: the deck, the suits, and the hidden rules a table plays.

Terms:
    table          a numbered card table of an event (1..N; a higher number is a better table).
                   Players who do well move up to the next table, so each table's neighbours
                   are the tables just below and just above it.
    variant        the rules one table secretly plays (``Variant``). Every table believes its
                   rules are the rules; the clash when players change tables is the point of
                   the game. A variant is a direction, a trump suit, and its clauses.
    direction      *ace high*: the highest card wins a trick and the ace ranks above the 7;
                   *ace low*: the lowest card wins and the ace ranks below the 2. Either way the
                   ace is the strongest card of its suit; what flips is the order of 2..7.
    trump          the suit that beats every other suit: a trump played into a trick wins it,
                   whatever its rank, unless a stronger trump is played too.
    trump-anytime  a stronger trump rule: a trump may be played at any turn, even by a player
                   who could follow suit. Without it (a *plain* variant) a trump may only be
                   played by someone who has no card of the suit that was led. It is the most
                   disruptive difference, so only a share of the tables get it (at most one in
                   five by default, ``DEFAULT_ANYTIME_SHARE``).
    clause         one way a table's rules can differ besides direction and trump
                   (``Clause``). The classic one is trump-anytime; the *new* clauses come from
                   the other card games of the source documents:
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
    code           a variant's short, stable name, e.g. "low-clubs-anytime" or
                   "high-notrump-fewest": direction, trump (or "notrump"), then its clauses in
                   ``CLAUSE_ORDER``. Stored with every table and in every event record.
    difference set which clauses an event's draw may use (``DifferenceSet``): classic (trump-
                   anytime only, the default), classic + gentle, classic + disruptive, or a
                   custom checklist. ``difference_clauses`` turns one into clauses.
    disruptive share the most tables that may carry a disruptive new clause (fewest wins or
                   must overtake), as a share of the tables (``DEFAULT_DISRUPTIVE_SHARE``).

Card data (``Variant.winning_card_order``) uses the rank codes "A", "2" .. "7". Drawing,
naming and checking variants is tables.rules.variants' job; the tournament's models and its
debrief rules need only these facts, so they live here, below both apps.

Standard library only: this module must stay importable without Django.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

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
# The order of a code's suffixes after the trump; fixed, so a code names one variant. Labels
# and the reveal list a variant's clauses in this order too.
CLAUSE_ORDER: tuple[Clause, ...] = (
    Clause.TRUMP_ANYTIME,
    Clause.TRUMPS_BROKEN,
    Clause.MUST_OVERTAKE,
    Clause.FEWEST_WINS,
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

_HIGH = "high"
_LOW = "low"


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
        parts.extend(clause.value for clause in CLAUSE_ORDER if clause in self.clauses)
        return "-".join(parts)

    @classmethod
    def from_code(cls, code: str) -> Variant:
        """The variant named by ``code``; ValueError for anything ``code`` never produces."""
        if not isinstance(code, str):
            raise ValueError(f"a variant code must be a string, got {code!r}")
        parts = code.split("-")
        trumps = {suit.value for suit in Suit} | {Clause.NO_TRUMP.value}
        order = [clause.value for clause in CLAUSE_ORDER]
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
        # The field is named at run time, so its value is typed loosely for replace().
        flag: dict[str, Any] = {_FIELD_BY_CLAUSE[clause]: True}
        return replace(self, **flag)

    @property
    def winning_card_order(self) -> list[str]:
        """Ranks from the card that wins a trick to the weakest; the ace always comes first."""
        numbers = list(RANKS[1:])
        if self.ace_high:
            numbers.reverse()
        return [RANKS[0], *numbers]


_FIELD_BY_CLAUSE: dict[Clause, str] = {
    Clause.TRUMP_ANYTIME: "trump_anytime",
    Clause.NO_TRUMP: "no_trump",
    Clause.TRUMPS_BROKEN: "trumps_broken",
    Clause.MUST_OVERTAKE: "must_overtake",
    Clause.FEWEST_WINS: "fewest_wins",
}


# Plain variants first: they are the base game, and a plan uses them most. The draw walks
# these tuples in this order, so changing it would change every seed's plan.
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
