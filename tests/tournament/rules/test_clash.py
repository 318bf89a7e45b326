"""Which rules met at a table-round, and the one sentence the room reads about it."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from tables.rules.variants import ALL_VARIANTS, Suit, Variant, rule_lines
from tests.properties import examples
from tournament.rules.clash import (
    ClashKind,
    Difference,
    TableRound,
    clash_counts,
    clash_differences,
    clash_kind,
    clash_sentence,
    differences_text,
    legend_kinds,
)

# No example database: it would leave a .hypothesis directory in the work tree.
PROPERTY = settings(database=None, max_examples=examples(100), deadline=None)

HIGH_HEARTS = Variant(ace_high=True, trump=Suit.HEARTS)
LOW_HEARTS = Variant(ace_high=False, trump=Suit.HEARTS)
HIGH_CLUBS = Variant(ace_high=True, trump=Suit.CLUBS)
HIGH_HEARTS_ANYTIME = Variant(ace_high=True, trump=Suit.HEARTS, trump_anytime=True)


def cell(kind: ClashKind, disputes: int, table: int = 1, round_: int = 1) -> TableRound:
    return TableRound(table, round_, kind, disputes)


def test_ace_high_and_ace_low_players_together_clash_over_the_direction():
    assert clash_kind([HIGH_HEARTS, LOW_HEARTS, HIGH_HEARTS]) == ClashKind.DIRECTION


def test_one_direction_with_another_trump_or_any_time_rule_clashes_over_the_trump():
    assert clash_kind([HIGH_HEARTS, HIGH_CLUBS]) == ClashKind.TRUMP
    assert clash_kind([HIGH_HEARTS, HIGH_HEARTS_ANYTIME]) == ClashKind.TRUMP


def test_players_of_one_home_table_meet_no_clash():
    assert clash_kind([HIGH_HEARTS] * 4) == ClashKind.NONE
    assert clash_kind([]) == ClashKind.NONE


def test_the_sentence_counts_disputed_table_rounds_of_each_kind():
    cells = [cell(ClashKind.DIRECTION, 2)] * 7 + [cell(ClashKind.DIRECTION, 0)] * 2
    cells += [cell(ClashKind.TRUMP, 1)] + [cell(ClashKind.TRUMP, 0)] * 5

    assert clash_sentence(cells) == (
        "Disputes came at 7 of 9 table-rounds where ace-high and ace-low players met, "
        "and at 1 of 6 where only the trump rules differed."
    )


def test_the_sentence_leaves_out_a_kind_that_never_met():
    assert clash_sentence([cell(ClashKind.TRUMP, 0)] * 3) == (
        "Disputes came at 0 of 3 table-rounds where only the trump rules differed."
    )
    assert clash_sentence([cell(ClashKind.DIRECTION, 1)]) == (
        "Disputes came at 1 of 1 table-round where ace-high and ace-low players met."
    )


def test_the_sentence_says_so_when_no_rules_met_or_nothing_was_played():
    assert clash_sentence([cell(ClashKind.NONE, 0)]) == (
        "No table-round brought players with different rules together."
    )
    assert clash_sentence([]) == "No round was played, so no rules met."


def test_disputes_among_players_of_the_same_rules_are_said_too():
    sentence = clash_sentence([cell(ClashKind.DIRECTION, 1), cell(ClashKind.NONE, 3)])
    assert sentence.endswith("Where everyone had studied the same rules: 1 of 1.")


def test_table_round_agrees_with_the_count_before_it():
    assert clash_sentence([cell(ClashKind.TRUMP, 1)]) == (
        "Disputes came at 1 of 1 table-round where only the trump rules differed."
    )
    one_direction = [
        cell(ClashKind.DIRECTION, 0),
        cell(ClashKind.TRUMP, 0),
        cell(ClashKind.TRUMP, 0),
    ]
    assert clash_sentence(one_direction).startswith("Disputes came at 0 of 1 table-round where")
    assert "of 2 table-rounds" in clash_sentence([cell(ClashKind.TRUMP, 0)] * 2)


def test_the_plural_goes_through_ngettext_with_the_count():
    calls = []

    def ngettext(singular, plural, count):
        calls.append(count)
        return f"[{plural}]"

    sentence = clash_sentence([cell(ClashKind.DIRECTION, 1)] * 3, ngettext=ngettext)
    assert calls == [3]
    assert (
        sentence == "[Disputes came at 3 of 3 table-rounds where ace-high and ace-low players met.]"
    )


def test_the_sentence_goes_through_translate():
    assert clash_sentence([], translate=str.upper) == "NO ROUND WAS PLAYED, SO NO RULES MET."


cells_strategy = st.lists(
    st.builds(
        TableRound,
        table=st.integers(1, 20),
        round=st.integers(1, 6),
        kind=st.sampled_from(list(ClashKind)),
        disputes=st.integers(0, 5),
    ),
    max_size=60,
)


@PROPERTY
@given(cells_strategy)
def test_the_sentences_numbers_are_the_counts_and_never_more_disputed_than_met(cells):
    counts = clash_counts(cells)
    assert sum(count.total for count in counts.values()) == len(cells)
    sentence = clash_sentence(cells)
    numbers = [int(n) for n in re.findall(r"\d+", sentence)]
    for disputed, total in zip(numbers[::2], numbers[1::2], strict=False):
        assert 0 <= disputed <= total
    for kind in (ClashKind.DIRECTION, ClashKind.TRUMP):
        if counts[kind].total:
            assert f"{counts[kind].disputed} of {counts[kind].total}" in sentence


@PROPERTY
@given(st.lists(st.sampled_from(ALL_VARIANTS), min_size=1, max_size=8))
def test_the_kind_is_direction_exactly_when_both_directions_sat_together(home_rules):
    kind = clash_kind(home_rules)
    assert (kind == ClashKind.DIRECTION) == (len({v.ace_high for v in home_rules}) == 2)
    assert (kind == ClashKind.NONE) == (len(set(home_rules)) == 1)


def test_the_reveal_says_each_difference_in_one_line():
    assert rule_lines(Variant(ace_high=False, trump=Suit.HEARTS, trump_anytime=True)) == [
        "Ace low: the lowest card wins (the ace beats the 2)",
        "Trump: hearts",
        "Trumps may be played at any time",
    ]
    assert rule_lines(HIGH_CLUBS) == [
        "Ace high: the highest card wins (the ace beats the 7)",
        "Trump: clubs",
    ]


# --- the clauses beyond the classic three -----------------------------------------------

FEWEST = Variant.from_code("low-clubs-fewest")
NO_TRUMP = Variant.from_code("high-notrump")
BROKEN = Variant.from_code("high-hearts-broken")
OVERTAKE = Variant.from_code("high-hearts-overtake")


def test_most_and_fewest_tricks_meeting_is_the_biggest_clash():
    # Even with the direction differing too: what winning means comes first.
    assert clash_kind([HIGH_HEARTS, FEWEST]) == ClashKind.WINNING
    assert clash_kind([FEWEST, FEWEST]) == ClashKind.NONE


def test_no_trump_and_trumps_broken_are_trump_clashes():
    assert clash_kind([HIGH_HEARTS, NO_TRUMP]) == ClashKind.TRUMP
    assert clash_kind([HIGH_HEARTS, BROKEN]) == ClashKind.TRUMP


def test_must_beat_the_best_card_alone_is_a_play_clash():
    assert clash_kind([HIGH_HEARTS, OVERTAKE]) == ClashKind.PLAY
    assert clash_kind([LOW_HEARTS, OVERTAKE]) == ClashKind.DIRECTION


@given(st.lists(st.sampled_from(ALL_VARIANTS), max_size=6))
@PROPERTY
def test_classic_rules_only_ever_make_the_classic_kinds(rules):
    assert clash_kind(rules) in (ClashKind.DIRECTION, ClashKind.TRUMP, ClashKind.NONE)


def test_the_differences_name_every_way_the_rules_differ():
    assert clash_differences([HIGH_HEARTS, FEWEST]) == (
        Difference.WINNING,
        Difference.DIRECTION,
        Difference.TRUMP,
    )
    assert clash_differences([HIGH_HEARTS, HIGH_HEARTS_ANYTIME, OVERTAKE]) == (
        Difference.ANYTIME,
        Difference.OVERTAKE,
    )
    assert clash_differences([NO_TRUMP, NO_TRUMP]) == ()
    text = differences_text(clash_differences([HIGH_HEARTS, FEWEST]))
    assert text == "most or fewest tricks wins, ace-high or ace-low, trump suit"


def test_the_sentence_speaks_of_the_new_kinds_first():
    cells = [cell(ClashKind.WINNING, 1), cell(ClashKind.WINNING, 0), cell(ClashKind.DIRECTION, 1)]
    assert clash_sentence(cells) == (
        "Where players who win with the most tricks met players who win with the fewest, "
        "disputes came at 1 of 2 table-rounds. Disputes came at 1 of 1 table-round where "
        "ace-high and ace-low players met."
    )
    assert clash_sentence([cell(ClashKind.PLAY, 0)]) == (
        "Where only “must beat the best card” differed: disputes at 0 of 1."
    )
    assert clash_sentence([cell(ClashKind.WINNING, 1)]) == (
        "Where players who win with the most tricks met players who win with the fewest, "
        "disputes came at 1 of 1 table-round."
    )


def test_the_legend_adds_a_new_kind_only_where_it_met():
    classic = [cell(ClashKind.DIRECTION, 0), cell(ClashKind.NONE, 0)]
    assert legend_kinds(classic) == [ClashKind.DIRECTION, ClashKind.TRUMP]
    assert legend_kinds([*classic, cell(ClashKind.WINNING, 0)]) == [
        ClashKind.WINNING,
        ClashKind.DIRECTION,
        ClashKind.TRUMP,
    ]
