"""Game winners and trick-count checks."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.rules.scoring import check_tricks, game_winner
from tests.properties import examples
from tournament.rules.ordering import name_key, rank_players

# No example database: it would leave a .hypothesis directory in the work tree.
PROPERTY = settings(database=None, deadline=None, max_examples=examples(200))

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

# Table size -> tricks in a finished game (tables.rules.deal): 7 cards each at 2 or 3 players,
# the whole deck from 4 on, so a game lasts as long as its largest hand.
TRICKS_BY_SIZE = {2: 7, 3: 7, 4: 7, 5: 6, 6: 5, 7: 4}


def seated(count: int) -> list[str]:
    return ["Al", "Bo", "Cy", "Di", "Ed", "Flo", "Gus"][:count]


@pytest.mark.parametrize(("players", "tricks"), TRICKS_BY_SIZE.items())
def test_a_finished_game_has_the_tricks_of_its_tables_deal(players, tricks):
    names = seated(players)
    # The first player took every trick but one, the second the last one.
    counts = dict.fromkeys(names, 0) | {names[0]: tricks - 1, names[1]: 1}
    assert check_tricks(counts, players=players, finished=True) == []
    short = counts | {names[0]: tricks - 2}
    assert check_tricks(short, players=players, finished=True) == [
        f"A finished game at this table has {tricks} tricks, not {tricks - 1}."
    ]
    over = counts | {names[0]: tricks}
    for finished in (True, False):
        assert check_tricks(over, players=players, finished=finished) == [
            f"{tricks + 1} tricks entered, but a game at this table has only {tricks}."
        ]


def test_five_players_finish_a_game_in_six_tricks_not_five():
    # 28 cards dealt one at a time: three players hold 6, two hold 5; the sixth trick is
    # played by three. The old equal deal (5 each) refused this report.
    assert (
        check_tricks({"Al": 2, "Bo": 2, "Cy": 1, "Di": 1, "Ed": 0}, players=5, finished=True) == []
    )


def test_six_players_finish_in_five_tricks():
    tricks = {"Al": 2, "Bo": 1, "Cy": 1, "Di": 1, "Ed": 0, "Flo": 0}
    assert check_tricks(tricks, players=6, finished=True) == []


def test_seven_players_finish_in_four_tricks():
    tricks = {"Al": 1, "Bo": 1, "Cy": 1, "Di": 1, "Ed": 0, "Flo": 0, "Gus": 0}
    assert check_tricks(tricks, players=7, finished=True) == []
    assert check_tricks(tricks | {"Gus": 1}, players=7, finished=False) == [
        "5 tricks entered, but a game at this table has only 4."
    ]


def test_a_small_table_plays_seven_tricks():
    assert check_tricks({"Al": 4, "Bo": 3}, players=2, finished=True) == []
    assert check_tricks({"Al": 4, "Bo": 2, "Cy": 1}, players=3, finished=True) == []


def test_an_unfinished_game_under_the_total_has_no_problems():
    assert check_tricks({"Al": 1, "Bo": 0, "Cy": 2}, players=3, finished=False) == []


def test_an_unfinished_game_may_already_hold_every_trick():
    assert (
        check_tricks({"Al": 4, "Bo": 1, "Cy": 0, "Di": 0, "Ed": 1}, players=5, finished=False) == []
    )


def test_unfinished_game_with_no_trick_played():
    assert check_tricks({"Al": 0, "Bo": 0}, players=2, finished=False) == [
        "No trick has been played yet."
    ]


def test_finished_game_with_no_tricks():
    assert check_tricks({"Al": 0, "Bo": 0}, players=5, finished=True) == [
        "A finished game at this table has 6 tricks, not 0."
    ]


def test_a_one_trick_game_says_trick_not_tricks():
    # 28 players: one card each, one trick.
    assert check_tricks({"Al": 0, "Bo": 0}, players=28, finished=True) == [
        "A finished game at this table has 1 trick, not 0."
    ]


def test_negative_counts_are_reported_per_player_in_alphabetical_order():
    problems = check_tricks({"Cy": -1, "Al": 5, "émile": -2}, players=3, finished=False)
    assert problems == [
        "Cy has a negative number of tricks.",
        "émile has a negative number of tricks.",
    ]


def test_a_negative_count_does_not_hide_an_excess():
    problems = check_tricks({"Al": -1, "Bo": 7}, players=5, finished=True)
    assert problems == [
        "Al has a negative number of tricks.",
        "7 tricks entered, but a game at this table has only 6.",
    ]


@pytest.mark.parametrize(
    ("finished", "expected"),
    [
        (False, "No trick has been played yet."),
        (True, "A finished game at this table has 6 tricks, not 0."),
    ],
)
def test_no_players_is_a_problem(finished, expected):
    assert check_tricks({}, players=5, finished=finished) == [expected]


@pytest.mark.parametrize("players", [0, -1, 29])
def test_a_table_size_without_a_deal_is_refused(players):
    with pytest.raises(ValueError, match="players"):
        check_tricks({"Al": 0}, players=players, finished=False)


CATALOGUE = {
    "%(player)s has a negative number of tricks.": "%(player)s : nombre de plis négatif.",
    "%(total)d tricks entered, but a game at this table has only %(tricks)d.": (
        "%(total)d plis saisis, mais une partie à cette table n'en a que %(tricks)d."
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
        {"Al": -1, "Bo": 6}, players=6, finished=True, translate=translate
    )
    none_yet = check_tricks({"Al": 0}, players=6, finished=False, translate=translate)

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
    st.dictionaries(names, st.integers(-2, 8), max_size=7),
    st.integers(2, 7),
    st.booleans(),
)
def test_no_problems_means_a_winner_can_be_named(tricks, players, finished):
    if not check_tricks(tricks, players=players, finished=finished):
        assert tricks[game_winner(tricks)] == max(tricks.values())
        assert sum(tricks.values()) <= TRICKS_BY_SIZE[players]
        if finished:
            assert sum(tricks.values()) == TRICKS_BY_SIZE[players]


@st.composite
def finished_games(draw: st.DrawFn) -> tuple[int, list[int]]:
    """A table size from 2 to 7 and tricks per player that add up to a finished game."""
    players = draw(st.integers(2, 7))
    counts = [0] * players
    for _ in range(TRICKS_BY_SIZE[players]):
        counts[draw(st.integers(0, players - 1))] += 1
    return players, counts


@PROPERTY
@given(finished_games(), st.booleans())
def test_any_split_of_a_finished_games_tricks_is_accepted_and_no_other_total(game, more):
    players, counts = game
    tricks = dict(zip(seated(players), counts, strict=True))
    assert check_tricks(tricks, players=players, finished=True) == []
    assert check_tricks(tricks, players=players, finished=False) == []
    # One trick more or one fewer than the deal gives is refused for a finished game.
    leader = max(tricks, key=tricks.__getitem__)
    tricks[leader] += 1 if more else -1
    assert check_tricks(tricks, players=players, finished=True) != []


# --- game_winner at a fewest-wins (misère) table ----------------------------------------


def test_fewest_tricks_win_a_finished_game_at_a_fewest_wins_table():
    assert game_winner({"Al": 4, "Bo": 1, "Cy": 2}, fewest_wins=True) == "Bo"
    # The same counts at an ordinary table give the game to the most.
    assert game_winner({"Al": 4, "Bo": 1, "Cy": 2}) == "Al"


def test_a_player_without_a_trick_wins_at_a_fewest_wins_table():
    assert game_winner({"Al": 3, "Bo": 0, "Cy": 1}, fewest_wins=True) == "Bo"


def test_an_unfinished_game_goes_to_the_fewest_so_far():
    assert game_winner({"Al": 1, "Bo": 2, "Cy": 1, "Di": 0}, fewest_wins=True) == "Di"


def test_a_tie_for_the_fewest_goes_alphabetically_ignoring_accents_and_case():
    assert game_winner({"Zed": 1, "eve": 1, "Émile": 1, "Al": 3}, fewest_wins=True) == "Émile"
    assert game_winner({"zoë": 0, "Zoe": 0}, fewest_wins=True) == "Zoe"


def test_negative_tricks_are_an_error_at_a_fewest_wins_table_too():
    with pytest.raises(ValueError, match="Bo"):
        game_winner({"Al": 2, "Bo": -1}, fewest_wins=True)
