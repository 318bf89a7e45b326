"""Drawing a plan of variants for an event's tables, and redrawing one table of it.

Terms:
    plan           the variants of all tables of an event, table 1 first (index 0).
    seed           the event's number that drives the draw: the same seed, table count,
                   shares and clauses always give the same plan, on every machine and
                   Python run (no set or hash order is ever drawn from).
    neighbour rule neighbouring tables differ in direction and in trump suit, so a player
                   who moves meets the clash on the first trick and again at the first
                   trump. The draw always keeps it; a redraw keeps it whenever the
                   neighbours leave a variant that can; tables.rules.variants.checks flags a
                   plan that does not.
    cycle          the 8 plain (direction, trump) pairs in the order the draw repeats them
                   along the tables; slot i of the cycle is every table i, i + 8, i + 16...
    redraw         a new variant for one table of a plan, e.g. after the organizer edited
                   another by hand (``redraw_variant``).

Standard library only: this module must stay importable without Django.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence

from tables.rules.variants.clauses import add_clauses, new_clause, wanted_clauses
from tables.rules.variants.quotas import (
    anytime_tables_to_draw,
    checked_clauses,
    checked_count,
    checked_share,
    max_disruptive_tables,
)
from tournament.rules.cards import (
    DEFAULT_ANYTIME_SHARE,
    DEFAULT_DISRUPTIVE_SHARE,
    EVERY_VARIANT,
    Clause,
    Suit,
    Variant,
)

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
    chosen = checked_clauses(clauses)
    disruptive = checked_share(disruptive_share)
    n = checked_count(table_count)
    share = checked_share(anytime_share)
    if n == 0:
        return []
    rng = random.Random(seed)

    first_high = rng.random() < 0.5
    suits = list(Suit)
    rng.shuffle(suits)
    offset = rng.choice((2, 3))
    cycle = _cycle(first_high, suits, offset)
    anytime = _anytime_positions(n, anytime_tables_to_draw(n, share), rng)
    plan = [Variant(*cycle[i % _CYCLE], trump_anytime=i in anytime) for i in range(n)]
    return add_clauses(plan, seed, clauses=chosen, disruptive_share=float(disruptive))


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
    first clause ``wanted_clauses`` lists that it can (its own while the rest of the
    plan lacks it), else none, else one the plan has enough of. A no-trump table cannot
    keep its clause: the only other no-trump variant faces the other direction, which
    its neighbours play. Without ``clauses`` it picks among the classic variants only.
    """
    plan = list(variants)
    share = checked_share(anytime_share)
    chosen = checked_clauses(clauses)
    disruptive_limit = max_disruptive_tables(len(plan), disruptive_share)
    if not 0 <= index < len(plan):
        raise ValueError(f"index {index} is outside the plan of {len(plan)} tables")
    candidates = _redraw_candidates(
        plan,
        index,
        chosen,
        anytime_limit=math.floor(len(plan) * share),
        disruptive_limit=disruptive_limit,
    )
    preference = _redraw_preference(
        plan, index, wanted_clauses(plan, index, chosen, disruptive_share)
    )
    # Shuffle before taking the minimum so ties are broken by the seed, not by list order.
    random.Random(seed).shuffle(candidates)
    return min(candidates, key=preference)


def _neighbours(plan: Sequence[Variant], index: int) -> list[Variant]:
    """The variants of the tables just below and just above the one at ``index``."""
    return [plan[j] for j in (index - 1, index + 1) if 0 <= j < len(plan)]


def _clashes(variant: Variant, neighbours: Sequence[Variant]) -> int:
    """How often ``variant`` shares a direction or a trump with these neighbours."""
    return sum(
        (other.ace_high == variant.ace_high) + (other.trump_key == variant.trump_key)
        for other in neighbours
    )


def _redraw_candidates(
    plan: Sequence[Variant],
    index: int,
    chosen: frozenset[Clause],
    *,
    anytime_limit: int,
    disruptive_limit: int,
) -> list[Variant]:
    """What the table at ``index`` may be redrawn to, in ``EVERY_VARIANT`` order: neither
    its variant nor a neighbour's, within the plan's anytime and disruptive limits, and
    with at most one new clause, one of ``chosen`` that no neighbour has."""
    current = plan[index]
    neighbours = _neighbours(plan, index)
    others = [*plan[:index], *plan[index + 1 :]]
    anytime_allowed = sum(v.trump_anytime for v in others) < anytime_limit
    disruptive_allowed = sum(v.disruptive for v in others) < disruptive_limit

    def allowed_clauses(variant: Variant) -> bool:
        extra = variant.clauses - {Clause.TRUMP_ANYTIME}
        return (
            len(extra) <= 1
            and extra <= chosen
            and (disruptive_allowed or not variant.disruptive)
            and not any(extra & other.clauses for other in neighbours)
        )

    # EVERY_VARIANT starts with ALL_VARIANTS, so without clauses the candidates (and the
    # seeded shuffle of them) are exactly the classic redraw's.
    return [
        v
        for v in EVERY_VARIANT
        if v != current
        and v not in neighbours
        and (anytime_allowed or not v.trump_anytime)
        and allowed_clauses(v)
    ]


def _redraw_preference(
    plan: Sequence[Variant], index: int, wanted: Sequence[Clause]
) -> Callable[[Variant], tuple[int, int, int, int]]:
    """The order a redraw prefers variants in, smallest first (see ``redraw_variant``):
    fewest clashes with the neighbours, the most wanted new clause, fewest other uses,
    farthest nearest other use."""
    neighbours = _neighbours(plan, index)
    uses = Counter([*plan[:index], *plan[index + 1 :]])
    # The rank of each new clause (None: no new clause) in the table's preference.
    ranked: list[Clause | None] = [*wanted, None]

    def nearest_use(variant: Variant) -> int:
        distances = [abs(j - index) for j, v in enumerate(plan) if v == variant and j != index]
        return min(distances, default=len(plan) + 1)

    def clause_rank(variant: Variant) -> int:
        extra = new_clause(variant)
        return ranked.index(extra) if extra in ranked else len(ranked)

    def preference(variant: Variant) -> tuple[int, int, int, int]:
        return (
            _clashes(variant, neighbours),
            clause_rank(variant),
            uses[variant],
            -nearest_use(variant),
        )

    return preference
