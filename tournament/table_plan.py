"""How many tables an event needs, and who starts at which one.

Terms:
    headcount   the players present when the plan is made.
    table plan  a number of tables and the size of each; sizes never differ by more
                than one seat (*balanced*).
    home table  where a player is seated for study, practice and round 1.

Tables seat 3 to 6 players; 4 is the size the game plays best at, so the suggestion
maximises the number of 4-seat tables and, among equally good plans, prefers more
tables (a single table cannot move anybody).

Standard library only: this module must stay importable without Django.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass

from tournament.common.i18n import gettext_noop
from tournament.ordering import name_key

MIN_TABLE_SIZE = 3
MAX_TABLE_SIZE = 6
BEST_TABLE_SIZE = 4


def balanced_sizes(headcount: int, table_count: int) -> list[int]:
    """Table sizes, largest first, that differ by at most one seat."""
    if table_count < 1 or headcount < 0:
        raise ValueError("table_count must be >= 1 and headcount >= 0")
    base, extra = divmod(headcount, table_count)
    return [base + 1] * extra + [base] * (table_count - extra)


def table_count_problem(headcount: int, table_count: int) -> str | None:
    """Why this number of tables does not work for this headcount, or None."""
    if headcount < MIN_TABLE_SIZE:
        return gettext_noop("At least %(min)s players are needed for one table.")
    if table_count < 1:
        return gettext_noop("There must be at least one table.")
    # The smallest and largest balanced sizes, worked out without building the list: the
    # count comes from a form, and a huge one must be refused, not allocated.
    smallest, extra = divmod(headcount, table_count)
    largest = smallest + (1 if extra else 0)
    if smallest < MIN_TABLE_SIZE:
        return gettext_noop("Too many tables: some would have fewer than %(min)s players.")
    if largest > MAX_TABLE_SIZE:
        return gettext_noop("Too few tables: some would have more than %(max)s players.")
    return None


@dataclass(frozen=True)
class TablePlan:
    headcount: int
    table_count: int
    sizes: tuple[int, ...]

    @property
    def size_counts(self) -> dict[int, int]:
        """How many tables of each size, largest size first."""
        counts: dict[int, int] = {}
        for size in self.sizes:
            counts[size] = counts.get(size, 0) + 1
        return counts

    @property
    def best_size_tables(self) -> int:
        """How many tables seat exactly BEST_TABLE_SIZE players."""
        return self.sizes.count(BEST_TABLE_SIZE)


def table_count_options(headcount: int) -> list[TablePlan]:
    """Every plan that seats this headcount at tables of 3 to 6, fewest tables first."""
    return [
        TablePlan(headcount, count, tuple(balanced_sizes(headcount, count)))
        for count in range(1, headcount // MIN_TABLE_SIZE + 1)
        if table_count_problem(headcount, count) is None
    ]


def suggest_table_plan(headcount: int) -> TablePlan | None:
    """The best plan for a headcount, or None when fewer than 3 players are present."""
    options = table_count_options(headcount)
    if not options:
        return None
    return max(options, key=lambda plan: (plan.best_size_tables, plan.table_count))


def size_problems(sizes: dict[int, int]) -> list[tuple[int, int]]:
    """(table number, players) for every table whose size is outside 3 to 6."""
    return [
        (number, size)
        for number, size in sorted(sizes.items())
        if not MIN_TABLE_SIZE <= size <= MAX_TABLE_SIZE
    ]


def deal_home_tables(names: Iterable[str], table_count: int, seed: int) -> dict[str, int]:
    """Seat players at random, balanced to within one seat; the same seed gives the same deal.

    The names are sorted first, so the deal does not depend on the order they were typed.
    """
    ordered = sorted(names, key=name_key)
    random.Random(seed).shuffle(ordered)
    sizes = balanced_sizes(len(ordered), table_count)
    # Larger tables get the higher numbers: the better tables start fuller.
    sizes.reverse()
    seating: dict[str, int] = {}
    position = 0
    for table_number, size in enumerate(sizes, start=1):
        for name in ordered[position : position + size]:
            seating[name] = table_number
        position += size
    return seating
