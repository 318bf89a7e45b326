"""The classic set: the source tournament's own ten rule sheets, offered besides the draw.

Terms:
    classic sheet  one of the source's ten printed rule sheets, for tables 1 to 10 in print
                   order. Each states its direction twice ("Ace is the lowest card", "the
                   lowest card wins the trick"), its trump suit and, on sheets 8 and 9
                   only, that a trump may be played any time.
    classic set    a plan of the classic sheets, continued beyond table 10 by the draw's
                   rules without a seed (``classic_variants``).
    plays a sheet  a table of a plan that starts like the classic set and sits within its
                   sheets (``plays_classic_sheet``): the checks then name the source as the
                   reason for its trump-anytime tables.

Standard library only: this module must stay importable without Django.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from tables.rules.variants.quotas import anytime_tables_to_draw, checked_count, checked_share
from tournament.rules.cards import ALL_VARIANTS, DEFAULT_ANYTIME_SHARE, Suit, Variant

# The source's ten rule sheets, table 1 first, in the order they are printed.
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


def plays_classic_sheet(plan: Sequence[Variant], index: int) -> bool:
    """Whether the table at ``index`` plays its classic sheet in a plan of the classic set."""
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
    n = checked_count(table_count)
    plan = list(_CLASSIC_SHEETS[:n])
    added = n - len(plan)
    wanted = anytime_tables_to_draw(n, checked_share(anytime_share))
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
