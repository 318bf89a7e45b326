"""The table plan: which numbers of tables fit a headcount, the suggestion, the deal."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.properties import examples
from tournament.rules.table_plan import (
    MAX_TABLE_SIZE,
    MIN_TABLE_SIZE,
    balanced_sizes,
    deal_home_tables,
    size_problems,
    suggest_table_plan,
    table_count_options,
    table_count_problem,
)

PROPERTY = settings(database=None, deadline=None, max_examples=examples(200))


@pytest.mark.parametrize(
    ("headcount", "tables", "sizes"),
    [
        (3, 1, (3,)),
        (5, 1, (5,)),
        # Two tables of 3 rather than one of 6: a single table cannot move anybody.
        (6, 2, (3, 3)),
        (7, 2, (4, 3)),
        (8, 2, (4, 4)),
        (9, 2, (5, 4)),
        # 5+5 and 6+5 rather than 4+3+3 and 4+4+3: tables of 3 only when nothing else fits.
        (10, 2, (5, 5)),
        (11, 2, (6, 5)),
        (12, 3, (4, 4, 4)),
        (13, 3, (5, 4, 4)),
        (15, 3, (5, 5, 5)),
        (20, 5, (4, 4, 4, 4, 4)),
        (22, 5, (5, 5, 4, 4, 4)),
        (24, 6, (4, 4, 4, 4, 4, 4)),
        (27, 6, (5, 5, 5, 4, 4, 4)),
        (500, 125, (4,) * 125),
    ],
)
def test_suggestions_avoid_tables_of_three_then_favour_tables_of_four(headcount, tables, sizes):
    plan = suggest_table_plan(headcount)
    assert (plan.table_count, plan.sizes) == (tables, sizes)


def test_no_plan_below_three_players():
    assert suggest_table_plan(2) is None
    assert table_count_options(2) == []
    assert table_count_problem(2, 1) is not None


def test_options_are_every_count_that_fits():
    assert [p.table_count for p in table_count_options(13)] == [3, 4]
    assert [p.sizes for p in table_count_options(13)] == [(5, 4, 4), (4, 3, 3, 3)]
    assert table_count_problem(13, 2) is not None  # 7 + 6: too big
    assert table_count_problem(13, 5) is not None  # tables of 2


def test_a_huge_table_count_is_refused_without_building_its_tables():
    # A form can send any number; working out the sizes of 10**12 tables would exhaust
    # the memory before the answer "too many" came.
    assert table_count_problem(13, 10**12) == (
        "Too many tables: some would have fewer than %(min)s players."
    )


@PROPERTY
@given(st.integers(min_value=0, max_value=200), st.integers(min_value=-3, max_value=200))
def test_the_problem_agrees_with_the_balanced_sizes(headcount, table_count):
    problem = table_count_problem(headcount, table_count)
    if headcount < MIN_TABLE_SIZE or table_count < 1:
        assert problem is not None
        return
    sizes = balanced_sizes(headcount, table_count)
    fits = min(sizes) >= MIN_TABLE_SIZE and max(sizes) <= MAX_TABLE_SIZE
    assert (problem is None) == fits


def test_size_problems_name_the_tables_outside_three_to_six():
    assert size_problems({1: 3, 2: 7, 3: 2, 4: 6}) == [(2, 7), (3, 2)]


def usual_plan_exists(headcount: int) -> bool:
    # Stated independently of the module: some balanced plan keeps every table at 4 to 6.
    for tables in range(1, headcount + 1):
        smallest, extra = divmod(headcount, tables)
        if smallest >= 4 and smallest + (1 if extra else 0) <= 6:
            return True
    return False


def check_suggestion(headcount: int) -> None:
    plan = suggest_table_plan(headcount)
    assert plan is not None
    assert sum(plan.sizes) == headcount
    assert max(plan.sizes) - min(plan.sizes) <= 1
    assert all(MIN_TABLE_SIZE <= size <= MAX_TABLE_SIZE for size in plan.sizes)
    if usual_plan_exists(headcount):
        assert 3 not in plan.sizes, plan


def test_no_table_of_three_when_tables_of_four_to_six_fit_for_every_headcount_8_to_200():
    for headcount in range(8, 201):
        assert usual_plan_exists(headcount)
        check_suggestion(headcount)


@PROPERTY
@given(st.integers(min_value=8, max_value=600))
def test_no_table_of_three_when_tables_of_four_to_six_fit(headcount):
    check_suggestion(headcount)


@PROPERTY
@given(st.integers(min_value=3, max_value=600))
def test_the_suggestion_has_the_most_fours_among_the_plans_it_may_choose(headcount):
    plan = suggest_table_plan(headcount)
    options = table_count_options(headcount)
    # From 6 players on, one table is no tournament: nobody could move.
    allowed = [p for p in options if p.table_count > 1] if headcount >= 6 else options
    assert plan in allowed
    fewest_threes = min(p.three_seat_tables for p in allowed)
    assert plan.three_seat_tables == fewest_threes
    rivals = [p for p in allowed if p.three_seat_tables == fewest_threes]
    assert plan.best_size_tables == max(p.best_size_tables for p in rivals)


def test_three_seat_tables_counts_the_small_tables_of_an_option():
    assert [p.three_seat_tables for p in table_count_options(13)] == [0, 3]


@PROPERTY
@given(st.integers(min_value=6, max_value=600))
def test_the_suggestion_has_two_tables_or_more_from_six_players(headcount):
    assert suggest_table_plan(headcount).table_count >= 2


@PROPERTY
@given(st.integers(min_value=3, max_value=60), st.integers(min_value=0, max_value=10**6))
def test_the_deal_is_balanced_and_repeatable(headcount, seed):
    names = [f"P{i}" for i in range(headcount)]
    count = suggest_table_plan(headcount).table_count
    deal = deal_home_tables(names, count, seed)
    assert set(deal) == set(names)
    sizes = Counter(deal.values())
    assert max(sizes.values()) - min(sizes.values()) <= 1
    assert sorted(sizes.values(), reverse=True) == balanced_sizes(headcount, count)
    assert deal_home_tables(reversed(names), count, seed) == deal
