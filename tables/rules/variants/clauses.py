"""Laying the new clauses on a plan: which tables get no trump, trumps broken, must overtake
or fewest wins.

Terms:
    plan          the variants of all tables of an event, table 1 first (index 0).
    new clause    a clause beyond the classic three (tournament.rules.cards: no trump,
                  trumps broken, must overtake, fewest wins). A drawn table carries at most
                  one, on top of its direction, trump and perhaps trump-anytime.
    placing order rarest first (``PLACING_ORDER``): fewest wins, must overtake, no trump,
                  trumps broken. ``add_clauses`` places them in it, and a redrawn table
                  (tables.rules.variants.draw) prefers the ones the plan lacks in it.
    wanted        the new clauses a redrawn table should carry so the plan keeps the
                  draw's targets (tables.rules.variants.quotas.clause_targets), best first.

Standard library only: this module must stay importable without Django.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from tables.rules.variants.quotas import checked_clauses, clause_targets
from tournament.rules.cards import DEFAULT_DISRUPTIVE_SHARE, NEW_CLAUSES, Clause, Variant

# Rarest first: the order add_clauses places the clauses in, and redraw_variant fills them.
PLACING_ORDER: tuple[Clause, ...] = (
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
    chosen = checked_clauses(clauses)
    targets = clause_targets(len(plan), chosen, disruptive_share)
    # A string seed: this stream never disturbs the classic draw's, so the classic plan
    # underneath stays the same whatever clauses are chosen.
    rng = random.Random(f"clauses:{seed}")
    taken: dict[int, Clause] = {}
    for clause in PLACING_ORDER:
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

            def preference(
                i: int, clause: Clause = clause, target: float = target
            ) -> tuple[bool, bool, float]:
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


def new_clause(variant: Variant) -> Clause | None:
    """The variant's new clause (a drawn table has at most one), or None."""
    extra = [clause for clause in NEW_CLAUSES if clause in variant.clauses]
    return extra[0] if extra else None


def wanted_clauses(
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
        for clause in PLACING_ORDER
        if sum(clause in v.clauses for v in others) < targets.get(clause, 0)
    ]
    own = new_clause(plan[index])
    return sorted(short, key=lambda clause: clause != own)
