"""The deal: the whole deck one card at a time at 4 or more players, 7 each at a small table."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.rules.deal import (
    cards_left_out,
    deals_whole_deck,
    hand_sizes,
    players_in_last_trick,
    short_last_trick,
    tricks_per_game,
)

PROPERTY = settings(database=None, deadline=None)

whole_deck_tables = st.integers(4, 28)
any_table = st.integers(1, 28)


@pytest.mark.parametrize(
    ("players", "hands", "tricks", "in_last_trick"),
    [
        (4, (7, 7, 7, 7), 7, 4),
        (5, (6, 6, 6, 5, 5), 6, 3),
        (6, (5, 5, 5, 5, 4, 4), 5, 4),
        (7, (4, 4, 4, 4, 4, 4, 4), 4, 7),
        (8, (4, 4, 4, 4, 3, 3, 3, 3), 4, 4),
        (9, (4, 3, 3, 3, 3, 3, 3, 3, 3), 4, 1),
        (14, (2,) * 14, 2, 14),
        (15, (2,) * 13 + (1,) * 2, 2, 13),
        (28, (1,) * 28, 1, 28),
    ],
)
def test_the_whole_deck_is_dealt_from_the_dealers_left(players, hands, tricks, in_last_trick):
    assert hand_sizes(players) == hands
    assert tricks_per_game(players) == tricks
    assert players_in_last_trick(players) == in_last_trick
    assert short_last_trick(players) == (in_last_trick < players)
    assert cards_left_out(players) == 0
    assert deals_whole_deck(players)


@pytest.mark.parametrize(("players", "left_out"), [(1, 21), (2, 14), (3, 7)])
def test_a_small_table_plays_a_four_player_hand_and_leaves_the_rest_out(players, left_out):
    assert hand_sizes(players) == (7,) * players
    assert tricks_per_game(players) == 7
    assert not short_last_trick(players)
    assert cards_left_out(players) == left_out
    assert not deals_whole_deck(players)


def test_only_five_and_six_of_the_usual_sizes_end_with_a_short_trick():
    assert [n for n in range(2, 8) if short_last_trick(n)] == [5, 6]


@pytest.mark.parametrize("players", [0, -1, 29, 100])
@pytest.mark.parametrize(
    "answer",
    [hand_sizes, tricks_per_game, short_last_trick, cards_left_out, deals_whole_deck],
)
def test_impossible_tables_are_refused(answer, players):
    with pytest.raises(ValueError, match="between 1 and 28"):
        answer(players)


def test_a_player_count_must_be_a_whole_number():
    with pytest.raises(TypeError):
        hand_sizes(4.0)


# --- properties -----------------------------------------------------------------------


@PROPERTY
@given(whole_deck_tables)
def test_every_card_is_dealt_at_four_or_more_players(players):
    assert sum(hand_sizes(players)) == 28
    assert cards_left_out(players) == 0


@PROPERTY
@given(any_table)
def test_hands_differ_by_at_most_one_and_larger_hands_come_first(players):
    hands = hand_sizes(players)
    assert len(hands) == players
    assert max(hands) - min(hands) <= 1
    assert list(hands) == sorted(hands, reverse=True)
    assert min(hands) >= 1


@PROPERTY
@given(any_table)
def test_a_finished_game_has_as_many_tricks_as_the_largest_hand(players):
    hands = hand_sizes(players)
    assert tricks_per_game(players) == max(hands)
    # Each trick takes one card from every player still holding one, so the game plays
    # out exactly the cards dealt, and only its last trick can be short.
    full_tricks = min(hands)
    last = players_in_last_trick(players)
    if short_last_trick(players):
        assert tricks_per_game(players) == full_tricks + 1
        assert full_tricks * players + last == sum(hands)
    else:
        assert last == players
        assert tricks_per_game(players) * players == sum(hands)


@PROPERTY
@given(st.integers(1, 3))
def test_a_small_table_deals_seven_each_and_never_a_short_trick(players):
    assert hand_sizes(players) == (7,) * players
    assert tricks_per_game(players) == 7
    assert cards_left_out(players) == 28 - 7 * players
    assert not short_last_trick(players)
