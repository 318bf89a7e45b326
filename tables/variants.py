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
    plan           the variants of all tables of an event, table 1 first.
    rule sheet     the full rules of Five Tricks written out for one variant; they live in
                   tables.rule_sheets, which builds on the card facts, labels and dealing here.

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
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from tournament.common.i18n import Translate, gettext_noop, untranslated

DECK_SIZE = 28
RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7")
MAX_CARDS_PER_PLAYER = 7
DEFAULT_ANYTIME_SHARE = 0.2


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
    """One table's hidden rules. Ordering is by direction, then trump, then anytime."""

    ace_high: bool
    trump: Suit
    trump_anytime: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.ace_high, bool) or not isinstance(self.trump_anytime, bool):
            raise TypeError("ace_high and trump_anytime must be bools")
        # Accept the stored string ("hearts") so a database value round-trips, but keep the
        # field a Suit so comparisons and symbols always work.
        object.__setattr__(self, "trump", Suit(self.trump))

    @property
    def code(self) -> str:
        """A short, stable name such as "high-hearts" or "low-clubs-anytime"."""
        parts = [_HIGH if self.ace_high else _LOW, self.trump.value]
        if self.trump_anytime:
            parts.append(_ANYTIME)
        return "-".join(parts)

    @classmethod
    def from_code(cls, code: str) -> Variant:
        """The variant named by ``code``; ValueError for anything ``code`` never produces."""
        if not isinstance(code, str):
            raise ValueError(f"a variant code must be a string, got {code!r}")
        parts = code.split("-")
        valid = (
            len(parts) in (2, 3)
            and parts[0] in (_HIGH, _LOW)
            and parts[1] in {suit.value for suit in Suit}
            and (len(parts) == 2 or parts[2] == _ANYTIME)
        )
        if not valid:
            raise ValueError(f"not a variant code: {code!r}")
        return cls(ace_high=parts[0] == _HIGH, trump=Suit(parts[1]), trump_anytime=len(parts) == 3)

    @property
    def winning_card_order(self) -> list[str]:
        """Ranks from the card that wins a trick to the weakest; the ace always comes first."""
        numbers = list(RANKS[1:])
        if self.ace_high:
            numbers.reverse()
        return [RANKS[0], *numbers]


# Plain variants first: they are the base game, and a plan uses them most.
ALL_VARIANTS: tuple[Variant, ...] = tuple(
    Variant(ace_high=ace_high, trump=suit, trump_anytime=anytime)
    for anytime in (False, True)
    for ace_high in (True, False)
    for suit in Suit
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


def variant_label(variant: Variant, translate: Translate = untranslated) -> str:
    """A one-line description for the organizer, e.g. "Ace high · ♥ hearts trump"."""
    values = {
        "direction": direction_label(variant, translate),
        "symbol": variant.trump.symbol,
        "suit": suit_name(variant.trump, translate),
    }
    if variant.trump_anytime:
        return translated(
            translate,
            gettext_noop("%(direction)s · %(symbol)s %(suit)s trump · trump any time"),
            **values,
        )
    return translated(
        translate, gettext_noop("%(direction)s · %(symbol)s %(suit)s trump"), **values
    )


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


def _spread_positions(directions: Sequence[bool], count: int, rng: random.Random) -> list[int]:
    """Pick ``count`` evenly spaced tables whose directions alternate.

    Alternating keeps anytime tables split evenly between the two directions, which is
    what leaves each (direction, anytime) group small enough for every table to differ.
    """
    n = len(directions)
    if count == 0:
        return []
    # With an odd count and an odd number of tables, the larger direction group (the one
    # table 1 belongs to) must take the extra anytime table, or its plain group overflows.
    first = directions[0] if count % 2 == 1 and n % 2 == 1 else rng.random() < 0.5
    phase = rng.random()
    positions = []
    for i in range(count):
        wanted = first != (i % 2 == 1)
        # Targets are at least two tables apart (count <= n // 2), so moving one step to
        # reach the wanted direction never lands two picks on the same table.
        target = math.floor((i + phase) * n / count)
        if directions[target] != wanted:
            target = target + 1 if target + 1 < n else target - 1
        positions.append(target)
    return positions


def draw_variants(
    table_count: int, seed: int, anytime_share: float = DEFAULT_ANYTIME_SHARE
) -> list[Variant]:
    """Draw a variant for each table (index 0 is table 1); the same seed gives the same plan.

    Guarantees:
      * neighbouring tables never share a variant;
      * every table has its own variant when there are enough to go round: the 8 plain
        variants plus as many anytime ones as ``max_anytime_tables`` allows;
      * at most ``max_anytime_tables`` tables play trump-anytime. The draw uses that whole
        quota, capped at half the tables;
      * when variants must repeat, each is used as evenly as possible and the same variant
        never comes back within 8 tables.

    Preference, not a guarantee: neighbouring tables differ in direction too, because a
    player who moves then meets the clash on the very first trick rather than only when
    someone trumps. The draw currently always achieves it by alternating ace high and ace
    low; hand edits and ``redraw_variant`` may not.
    """
    n = _checked_count(table_count)
    share = _checked_share(anytime_share)
    if n == 0:
        return []
    rng = random.Random(seed)

    first_high = rng.random() < 0.5
    directions = [first_high != (index % 2 == 1) for index in range(n)]
    anytime = set(_spread_positions(directions, _anytime_tables_to_draw(n, share), rng))

    # Each (direction, anytime) group holds four variants, one per trump. Dealing them
    # round-robin along the group's tables (all the same parity, so at least two apart)
    # keeps repeats at least 4 * 2 = 8 tables apart and the usage even.
    plan: list[Variant | None] = [None] * n
    for ace_high in (True, False):
        for is_anytime in (False, True):
            suits = list(Suit)
            rng.shuffle(suits)
            group = [
                i for i in range(n) if directions[i] == ace_high and (i in anytime) == is_anytime
            ]
            for slot, position in enumerate(group):
                plan[position] = Variant(ace_high, suits[slot % len(suits)], is_anytime)
    drawn = [variant for variant in plan if variant is not None]
    assert len(drawn) == n, "every table belongs to exactly one group"
    return drawn


def redraw_variant(
    variants: Sequence[Variant],
    index: int,
    seed: int,
    anytime_share: float = DEFAULT_ANYTIME_SHARE,
) -> Variant:
    """A new variant for the table at ``index``; the same inputs give the same answer.

    Always differs from the table's current variant and its neighbours', and never takes
    the plan over its anytime limit. Among the rest it prefers, in order: a variant no
    other table uses (or else the fewest), the one whose nearest other use is farthest
    away, and a direction unlike the neighbours'.
    """
    plan = list(variants)
    share = _checked_share(anytime_share)
    if not 0 <= index < len(plan):
        raise ValueError(f"index {index} is outside the plan of {len(plan)} tables")
    current = plan[index]
    neighbours = [plan[j] for j in (index - 1, index + 1) if 0 <= j < len(plan)]
    others = plan[:index] + plan[index + 1 :]
    anytime_allowed = sum(v.trump_anytime for v in others) < math.floor(len(plan) * share)
    candidates = [
        v
        for v in ALL_VARIANTS
        if v != current and v not in neighbours and (anytime_allowed or not v.trump_anytime)
    ]
    uses = Counter(others)

    def nearest_use(variant: Variant) -> int:
        distances = [abs(j - index) for j, v in enumerate(plan) if v == variant and j != index]
        return min(distances, default=len(plan) + 1)

    def preference(variant: Variant) -> tuple[int, int, int]:
        same_direction = sum(other.ace_high == variant.ace_high for other in neighbours)
        return (uses[variant], -nearest_use(variant), same_direction)

    # Shuffle before taking the minimum so ties are broken by the seed, not by list order.
    random.Random(seed).shuffle(candidates)
    return min(candidates, key=preference)


def check_variants(
    variants: Sequence[Variant],
    anytime_share: float = DEFAULT_ANYTIME_SHARE,
    translate: Translate = untranslated,
) -> list[str]:
    """Problems with a plan (e.g. one edited by hand), as short messages; empty when fine.

    Flags neighbours with the same variant, more anytime tables than allowed, and repeats
    that enough distinct variants would have avoided. Direction is only a preference, so
    it is not flagged.
    """
    plan = list(variants)
    share = _checked_share(anytime_share)
    problems: list[str] = []

    for i in range(len(plan) - 1):
        if plan[i] == plan[i + 1]:
            problems.append(
                translated(
                    translate,
                    gettext_noop(
                        "Tables %(first)s and %(second)s are neighbours with the same "
                        "variant (%(variant)s)."
                    ),
                    first=i + 1,
                    second=i + 2,
                    variant=variant_label(plan[i], translate),
                )
            )

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


# --- dealing ----------------------------------------------------------------------------


def cards_per_player(players: int) -> int:
    """Cards each player gets: as many as go round evenly, but never more than 7.

    2 to 4 players get 7, 5 get 5, 6 or 7 get 4. Beyond 7 players the same rule gives
    28 // players (8 or 9 players: 3 each, 10 to 14: 2 each), fewer than the 4 the printed
    rules mention but still a playable game. More than 28 players cannot all get a card,
    which is a ValueError like fewer than 1.
    """
    count = operator.index(players)
    if not 1 <= count <= DECK_SIZE:
        raise ValueError(f"players must be between 1 and {DECK_SIZE}, got {count}")
    return min(MAX_CARDS_PER_PLAYER, DECK_SIZE // count)
