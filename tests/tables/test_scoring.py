"""Game winners and trick-count checks."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.scoring import check_tricks, game_winner
from tournament.ordering import name_key, rank_players

# No example database: it would leave a .hypothesis directory in the work tree.
PROPERTY = settings(database=None, max_examples=200)

NAME_ALPHABET = "aAáÁeEéÉëoOöÖzZ"
names = st.text(alphabet=NAME_ALPHABET, min_size=1, max_size=4)

# --- game_winner ----------------------------------------------------------------------


def test_most_tricks_wins_a_finished_game():
    assert game_winner({"Al": 1, "Bo": 3, "Cy": 1}) == "Bo"


def test_unfinished_game_still_has_a_winner():
    assert game_winner({"Al": 0, "Bo": 1, "Cy": 2, "Di": 0}) == "Cy"


def test_unfinished_game_with_no_trick_yet_goes_alphabetically():
    assert game_winner({"Di": 0, "Al": 0, "Bo": 0}) == "Al"


def test_tie_goes_alphabetically_ignoring_accents_and_case():
    assert game_winner({"eve": 2, "Eva": 2, "émile": 2, "Zed": 1}) == "émile"
    assert game_winner({"eve": 2, "Eva": 2}) == "Eva"


def test_tie_falls_back_to_exact_spelling():
    assert game_winner({"zoë": 2, "Zoe": 2, "Al": 1}) == "Zoe"


def test_more_tricks_beat_the_alphabet():
    assert game_winner({"Aaron": 2, "Zora": 3}) == "Zora"


def test_single_player_wins():
    assert game_winner({"Solo": 0}) == "Solo"


def test_no_players_is_an_error():
    with pytest.raises(ValueError, match="at least one player"):
        game_winner({})


def test_negative_tricks_are_an_error():
    with pytest.raises(ValueError, match="negative trick count for 'Bo'"):
        game_winner({"Al": 2, "Bo": -1})


# --- check_tricks ---------------------------------------------------------------------


def test_a_complete_finished_game_has_no_problems():
    assert check_tricks({"Al": 2, "Bo": 3, "Cy": 0}, cards_per_player=5, finished=True) == []


def test_an_unfinished_game_under_the_total_has_no_problems():
    assert check_tricks({"Al": 1, "Bo": 0, "Cy": 2}, cards_per_player=5, finished=False) == []


def test_an_unfinished_game_may_already_hold_every_trick():
    assert check_tricks({"Al": 4, "Bo": 1}, cards_per_player=5, finished=False) == []


def test_unfinished_game_with_no_trick_played():
    assert check_tricks({"Al": 0, "Bo": 0}, cards_per_player=5, finished=False) == [
        "No trick has been played yet."
    ]


def test_finished_game_short_of_tricks():
    assert check_tricks({"Al": 2, "Bo": 1}, cards_per_player=5, finished=True) == [
        "A finished game at this table has 5 tricks, not 3."
    ]


def test_finished_game_with_no_tricks():
    assert check_tricks({"Al": 0, "Bo": 0}, cards_per_player=5, finished=True) == [
        "A finished game at this table has 5 tricks, not 0."
    ]


def test_a_one_card_game_says_trick_not_tricks():
    assert check_tricks({"Al": 0, "Bo": 0}, cards_per_player=1, finished=True) == [
        "A finished game at this table has 1 trick, not 0."
    ]


@pytest.mark.parametrize("finished", [True, False])
def test_more_tricks_than_cards(finished):
    assert check_tricks({"Al": 4, "Bo": 3}, cards_per_player=5, finished=finished) == [
        "7 tricks entered, but a game at this table has only 5."
    ]


def test_negative_counts_are_reported_per_player_in_alphabetical_order():
    problems = check_tricks({"Cy": -1, "Al": 5, "émile": -2}, cards_per_player=5, finished=True)
    assert problems == [
        "Cy has a negative number of tricks.",
        "émile has a negative number of tricks.",
    ]


def test_a_negative_count_does_not_hide_an_excess():
    problems = check_tricks({"Al": -1, "Bo": 6}, cards_per_player=5, finished=True)
    assert problems == [
        "Al has a negative number of tricks.",
        "6 tricks entered, but a game at this table has only 5.",
    ]


@pytest.mark.parametrize(
    ("finished", "expected"),
    [
        (False, "No trick has been played yet."),
        (True, "A finished game at this table has 5 tricks, not 0."),
    ],
)
def test_no_players_is_a_problem(finished, expected):
    assert check_tricks({}, cards_per_player=5, finished=finished) == [expected]


def test_cards_per_player_must_be_positive():
    with pytest.raises(ValueError, match="cards_per_player"):
        check_tricks({"Al": 0}, cards_per_player=0, finished=False)


CATALOGUE = {
    "%(player)s has a negative number of tricks.": "%(player)s : nombre de plis négatif.",
    "%(total)d tricks entered, but a game at this table has only %(cards)d.": (
        "%(total)d plis saisis, mais une partie à cette table n'en a que %(cards)d."
    ),
    "No trick has been played yet.": "Aucun pli n'a encore été joué.",
}


def test_messages_are_looked_up_before_their_numbers_are_filled_in():
    """A catalogue knows the messages with their placeholders, never a filled-in copy."""
    asked = []

    def translate(message: str) -> str:
        asked.append(message)
        return CATALOGUE[message]

    negative_and_too_many = check_tricks(
        {"Al": -1, "Bo": 6}, cards_per_player=5, finished=True, translate=translate
    )
    none_yet = check_tricks({"Al": 0}, cards_per_player=5, finished=False, translate=translate)

    assert negative_and_too_many == [
        "Al : nombre de plis négatif.",
        "6 plis saisis, mais une partie à cette table n'en a que 5.",
    ]
    assert none_yet == ["Aucun pli n'a encore été joué."]
    assert set(asked) == set(CATALOGUE)


# --- properties -----------------------------------------------------------------------

tricks_per_game = st.dictionaries(names, st.integers(0, 6), min_size=1, max_size=6)


@PROPERTY
@given(tricks_per_game)
def test_winner_has_the_most_tricks_and_heads_the_table_order(tricks):
    winner = game_winner(tricks)
    assert tricks[winner] == max(tricks.values())
    assert winner == rank_players(tricks)[0]
    tied = [player for player, count in tricks.items() if count == tricks[winner]]
    assert winner == min(tied, key=name_key)


@PROPERTY
@given(
    st.dictionaries(names, st.integers(-2, 6), max_size=6),
    st.integers(1, 8),
    st.booleans(),
)
def test_no_problems_means_a_winner_can_be_named(tricks, cards, finished):
    if not check_tricks(tricks, cards_per_player=cards, finished=finished):
        assert tricks[game_winner(tricks)] == max(tricks.values())
        assert sum(tricks.values()) <= cards
        if finished:
            assert sum(tricks.values()) == cards
