"""How many tables an event needs, and who starts at which one.

Terms:
    headcount   the players present when the plan is made.
    table plan  a number of tables and the size of each; sizes never differ by more
                than one seat (*balanced*).
    home table  where a player is seated for study, practice and round 1.

Tables seat 3 to 6 players, but the game is written for 4 to 6 (*usual* sizes); 4 is the
size it plays best at. The suggestion compares the balanced plans in this order:

1. two tables or more when the headcount allows it (6 players or more): with a single
   table nobody can move up or down, so there is no tournament;
2. fewest 3-seat tables: none whenever some plan keeps every table at 4 to 6, which is
   every headcount from 8 up (only 3, 6 and 7 players need tables of 3);
3. most 4-seat tables, then most tables. Among balanced plans with usual sizes, more
   tables means smaller tables, so both keep the tables as close to 4 as they can be.

For example 9 players get 5+4, 10 get 5+5, 11 get 6+5, 13 get 5+4+4 and 22 get
5+5+4+4+4. The console still offers every count that fits 3 to 6 (a room may have too
few decks for the suggestion), and ``TablePlan.three_seat_tables`` tells which of them
need small tables.

Standard library only: this module must stay importable without Django.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass

from tournament.common.i18n import gettext_noop
from tournament.rules.ordering import name_key

MIN_TABLE_SIZE = 3
MAX_TABLE_SIZE = 6
BEST_TABLE_SIZE = 4
# The source's "usually 4-6": a table of 3 plays, but only when nothing else fits.
USUAL_MIN_TABLE_SIZE = 4


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

    @property
    def three_seat_tables(self) -> int:
        """How many tables seat fewer than the usual 4 players."""
        return sum(size < USUAL_MIN_TABLE_SIZE for size in self.sizes)


def table_count_options(headcount: int) -> list[TablePlan]:
    """Every plan that seats this headcount at tables of 3 to 6, fewest tables first."""
    return [
        TablePlan(headcount, count, tuple(balanced_sizes(headcount, count)))
        for count in range(1, headcount // MIN_TABLE_SIZE + 1)
        if table_count_problem(headcount, count) is None
    ]


def _preference(plan: TablePlan) -> tuple[bool, int, int, int]:
    # Larger is better; the order of the fields is the rule in the module docstring.
    return (
        plan.table_count > 1,
        -plan.three_seat_tables,
        plan.best_size_tables,
        plan.table_count,
    )


def suggest_table_plan(headcount: int) -> TablePlan | None:
    """The best plan for a headcount (see the module docstring), or None below 3 players."""
    options = table_count_options(headcount)
    if not options:
        return None
    return max(options, key=_preference)


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
