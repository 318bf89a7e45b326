"""Counts agree with their nouns: a plan of one table says "1 table", in every language
(ngettext), and so do the messages that count tables."""

from __future__ import annotations

from django.utils import translation

from tournament.forms import plan_choice_label
from tournament.rules.table_plan import table_count_options


def test_a_plan_of_one_table_says_table_and_of_two_tables():
    one, *_ = table_count_options(4)
    assert one.table_count == 1
    assert plan_choice_label(one) == "1 table (1 × 4 players)"
    two = next(plan for plan in table_count_options(8) if plan.table_count == 2)
    assert plan_choice_label(two) == "2 tables (2 × 4 players)"
    with translation.override("fr"):
        assert plan_choice_label(one).startswith("1 table (")
        assert plan_choice_label(two).startswith("2 tables (")
