"""How many tables of a plan may, and should, carry each rule: the shares and quotas.

Terms:
    share           a fraction of the tables between 0 and 1, as the organizer sets it
                    (``anytime_share``, ``disruptive_share``); computed exactly, as a decimal
                    fraction, so 100 tables x 0.29 is 29 and never 28.
    anytime limit   the most tables that may play trump-anytime: floor(tables x share),
                    so at most one in five by default (``max_anytime_tables``).
    disruptive limit the most tables that may carry a disruptive new clause (fewest wins or
                    must overtake): floor(tables x disruptive share); trump-anytime keeps its
                    own share (``max_disruptive_tables``).
    target          how many tables the draw gives each new clause it may use
                    (``clause_targets``): a gentle one at one table in four, the disruptive
                    ones sharing their limit.
    distinct        how many different variants a plan can use: the 8 plain ones and as many
                    anytime ones as the anytime limit allows.

The ``checked_*`` helpers turn the caller's numbers into exact ones or refuse them
(ValueError); the draw, the checks and the classic set use them alike.

Standard library only: this module must stay importable without Django.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Iterable
from fractions import Fraction

from tournament.rules.cards import (
    ALL_VARIANTS,
    DEFAULT_ANYTIME_SHARE,
    DEFAULT_DISRUPTIVE_SHARE,
    GENTLE_CLAUSES,
    NEW_CLAUSES,
    Clause,
)

_PLAIN_VARIANT_COUNT = sum(not variant.trump_anytime for variant in ALL_VARIANTS)
_ANYTIME_VARIANT_COUNT = len(ALL_VARIANTS) - _PLAIN_VARIANT_COUNT


def checked_count(table_count: int) -> int:
    """The number of tables as an int; ValueError below zero, TypeError for a non-integer."""
    count = operator.index(table_count)
    if count < 0:
        raise ValueError(f"table_count must not be negative, got {count}")
    return count


def checked_share(anytime_share: float) -> Fraction:
    """The share as an exact fraction; ValueError outside 0..1 (and for NaN)."""
    share = float(anytime_share)
    if not 0.0 <= share <= 1.0:  # also rejects NaN
        raise ValueError(f"anytime_share must be between 0 and 1, got {anytime_share!r}")
    # Exact decimal arithmetic: 100 * 0.29 is 28.999... in floats and would lose a table.
    return Fraction(repr(share))


def checked_clauses(clauses: Iterable[str]) -> frozenset[Clause]:
    """The clauses named by their codes; ValueError for any that is not a new clause."""
    chosen = frozenset(Clause(clause) for clause in clauses)
    if not chosen <= set(NEW_CLAUSES):
        raise ValueError(f"only new clauses can be drawn, not {sorted(chosen - set(NEW_CLAUSES))}")
    return chosen


def max_anytime_tables(table_count: int, anytime_share: float = DEFAULT_ANYTIME_SHARE) -> int:
    """How many tables may play trump-anytime: floor(table_count * share).

    With the default share that is at most one table in five, so none below five tables.
    """
    return math.floor(checked_count(table_count) * checked_share(anytime_share))


def max_disruptive_tables(
    table_count: int, disruptive_share: float = DEFAULT_DISRUPTIVE_SHARE
) -> int:
    """How many tables may carry a disruptive new clause: floor(table_count * share)."""
    return math.floor(checked_count(table_count) * checked_share(disruptive_share))


def distinct_available(table_count: int, share: Fraction) -> int:
    """How many different variants a plan of ``table_count`` tables can use."""
    anytime_allowed = math.floor(table_count * share)
    return _PLAIN_VARIANT_COUNT + min(_ANYTIME_VARIANT_COUNT, anytime_allowed)


def anytime_tables_to_draw(table_count: int, share: Fraction) -> int:
    """How many tables the draw (and the classic set beyond its sheets) makes anytime."""
    # The draw fills the anytime quota (the source tournament had two such tables in ten),
    # but never beyond half the tables: plain tables are the reference game, and an even
    # mix is what lets every table differ when there are up to 16 of them.
    return min(math.floor(table_count * share), table_count // 2)


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
    n = checked_count(table_count)
    chosen = checked_clauses(clauses)
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
