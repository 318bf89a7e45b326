"""The table plan: which numbers of tables fit a headcount, the suggestion, the deal."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.table_plan import (
    MAX_TABLE_SIZE,
    MIN_TABLE_SIZE,
    balanced_sizes,
    deal_home_tables,
    size_problems,
    suggest_table_plan,
    table_count_options,
    table_count_problem,
)

PROPERTY = settings(database=None, max_examples=200)


@pytest.mark.parametrize(
    ("headcount", "tables", "sizes"),
    [
        (3, 1, (3,)),
        (5, 1, (5,)),
        (7, 2, (4, 3)),
        (8, 2, (4, 4)),
        (13, 3, (5, 4, 4)),
        (20, 5, (4, 4, 4, 4, 4)),
        (22, 6, (4, 4, 4, 4, 3, 3)),
        (500, 125, (4,) * 125),
    ],
)
def test_suggestions_favour_tables_of_four(headcount, tables, sizes):
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


@PROPERTY
@given(st.integers(min_value=3, max_value=600))
def test_the_suggestion_is_a_valid_option_with_the_most_fours(headcount):
    plan = suggest_table_plan(headcount)
    options = table_count_options(headcount)
    assert plan in options
    assert plan.best_size_tables == max(p.best_size_tables for p in options)
    assert all(MIN_TABLE_SIZE <= size <= MAX_TABLE_SIZE for size in plan.sizes)
    assert sum(plan.sizes) == headcount


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
