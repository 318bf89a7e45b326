"""Moving up and down between rounds: worked examples for every clause, then properties."""

import dataclasses
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.properties import examples
from tournament.rules.movement import (
    LARGE_TABLE_MOVERS_PER_SIDE,
    LARGE_TABLE_THRESHOLD,
    MOVERS_PER_SIDE,
    Move,
    Reason,
    explain_moves,
    movers_per_side,
    plan_moves,
)

# No example database: it would leave a .hypothesis directory in the work tree.
PROPERTY = settings(database=None, max_examples=examples(200))

UP, DOWN, STAYS = Reason.MOVES_UP, Reason.MOVES_DOWN, Reason.STAYS
TOP, BOTTOM = Reason.STAYS_AT_TOP, Reason.STAYS_AT_BOTTOM

# Four players with distinct games, for tables around the one under test.
FILLER_LOW = {"L1": 3, "L2": 2, "L3": 1, "L4": 0}
FILLER_HIGH = {"H1": 3, "H2": 2, "H3": 1, "H4": 0}


def outcomes(tables, table):
    """{player: (to_table, reason, tie_broken)} for the players of one table."""
    moves = explain_moves(tables)
    return {p: (moves[p].to_table, moves[p].reason, moves[p].tie_broken) for p in tables[table]}


# --- constants ------------------------------------------------------------------------


def test_more_than_four_players_move_two_each_way():
    assert (MOVERS_PER_SIDE, LARGE_TABLE_THRESHOLD, LARGE_TABLE_MOVERS_PER_SIDE) == (1, 4, 2)
    assert [movers_per_side(n) for n in range(1, 8)] == [1, 1, 1, 1, 2, 2, 2]


def test_reason_values_match_the_stored_seat_reasons():
    assert [r.value for r in Reason] == [
        "moves_up",
        "moves_down",
        "stays_at_top",
        "stays_at_bottom",
        "stays",
    ]


# --- table sizes, at a middle table (one below and one above) -------------------------


def test_table_of_one_counts_as_winner_and_moves_up():
    tables = {1: FILLER_LOW, 2: {"Solo": 0}, 3: FILLER_HIGH}
    assert outcomes(tables, 2) == {"Solo": (3, UP, False)}


def test_table_of_one_at_the_top_stays():
    tables = {1: FILLER_LOW, 2: {"Solo": 0}}
    assert outcomes(tables, 2) == {"Solo": (2, TOP, False)}


def test_table_of_one_at_the_bottom_still_moves_up():
    tables = {1: {"Solo": 0}, 2: FILLER_HIGH}
    assert outcomes(tables, 1) == {"Solo": (2, UP, False)}


def test_table_of_two_first_up_second_down():
    tables = {1: FILLER_LOW, 2: {"Bo": 1, "Al": 2}, 3: FILLER_HIGH}
    assert outcomes(tables, 2) == {"Al": (3, UP, False), "Bo": (1, DOWN, False)}


def test_table_of_three_first_up_middle_stays_last_down():
    tables = {1: FILLER_LOW, 2: {"Al": 0, "Bo": 3, "Cy": 1}, 3: FILLER_HIGH}
    assert outcomes(tables, 2) == {
        "Bo": (3, UP, False),
        "Cy": (2, STAYS, False),
        "Al": (1, DOWN, False),
    }


def test_table_of_four_one_up_one_down():
    tables = {1: FILLER_LOW, 2: {"Al": 1, "Bo": 2, "Cy": 0, "Di": 3}, 3: FILLER_HIGH}
    assert outcomes(tables, 2) == {
        "Di": (3, UP, False),
        "Bo": (2, STAYS, False),
        "Al": (2, STAYS, False),
        "Cy": (1, DOWN, False),
    }


def test_table_of_five_two_up_one_stays_two_down():
    games = {"Al": 4, "Bo": 3, "Cy": 2, "Di": 1, "Ed": 0}
    assert outcomes({1: FILLER_LOW, 2: games, 3: FILLER_HIGH}, 2) == {
        "Al": (3, UP, False),
        "Bo": (3, UP, False),
        "Cy": (2, STAYS, False),
        "Di": (1, DOWN, False),
        "Ed": (1, DOWN, False),
    }


def test_table_of_six_two_up_two_stay_two_down():
    games = {"Al": 0, "Bo": 1, "Cy": 2, "Di": 3, "Ed": 4, "Fay": 5}
    assert outcomes({1: FILLER_LOW, 2: games, 3: FILLER_HIGH}, 2) == {
        "Fay": (3, UP, False),
        "Ed": (3, UP, False),
        "Di": (2, STAYS, False),
        "Cy": (2, STAYS, False),
        "Bo": (1, DOWN, False),
        "Al": (1, DOWN, False),
    }


# --- edges of the room ----------------------------------------------------------------


def test_top_table_winner_stays_and_its_loser_moves_down():
    tables = {1: FILLER_LOW, 2: {"Al": 3, "Bo": 2, "Cy": 1, "Di": 0}}
    assert outcomes(tables, 2) == {
        "Al": (2, TOP, False),
        "Bo": (2, STAYS, False),
        "Cy": (2, STAYS, False),
        "Di": (1, DOWN, False),
    }


def test_top_table_of_five_keeps_both_winners():
    tables = {1: FILLER_LOW, 2: {"Al": 4, "Bo": 3, "Cy": 2, "Di": 1, "Ed": 0}}
    assert outcomes(tables, 2) == {
        "Al": (2, TOP, False),
        "Bo": (2, TOP, False),
        "Cy": (2, STAYS, False),
        "Di": (1, DOWN, False),
        "Ed": (1, DOWN, False),
    }


def test_bottom_table_loser_stays_and_its_winner_moves_up():
    tables = {1: {"Al": 3, "Bo": 2, "Cy": 1, "Di": 0}, 2: FILLER_HIGH}
    assert outcomes(tables, 1) == {
        "Al": (2, UP, False),
        "Bo": (1, STAYS, False),
        "Cy": (1, STAYS, False),
        "Di": (1, BOTTOM, False),
    }


def test_bottom_table_of_six_keeps_both_losers():
    games = {"Al": 5, "Bo": 4, "Cy": 3, "Di": 2, "Ed": 1, "Fay": 0}
    assert outcomes({1: games, 2: FILLER_HIGH}, 1) == {
        "Al": (2, UP, False),
        "Bo": (2, UP, False),
        "Cy": (1, STAYS, False),
        "Di": (1, STAYS, False),
        "Ed": (1, BOTTOM, False),
        "Fay": (1, BOTTOM, False),
    }


def test_single_table_everybody_stays():
    tables = {7: {"Al": 3, "Bo": 2, "Cy": 1, "Di": 0}}
    assert plan_moves(tables) == {"Al": 7, "Bo": 7, "Cy": 7, "Di": 7}
    assert outcomes(tables, 7) == {
        "Al": (7, TOP, False),
        "Bo": (7, STAYS, False),
        "Cy": (7, STAYS, False),
        "Di": (7, BOTTOM, False),
    }


def test_single_table_of_one_player_stays_at_top():
    assert outcomes({1: {"Solo": 2}}, 1) == {"Solo": (1, TOP, False)}


def test_no_tables_no_moves():
    assert explain_moves({}) == {}
    assert plan_moves({}) == {}


# --- numbering: gaps and empty tables -------------------------------------------------


def test_gaps_in_numbering_move_to_the_next_existing_table():
    tables = {
        1: {"A1": 3, "A2": 2, "A3": 1, "A4": 0},
        2: {"B1": 3, "B2": 2, "B3": 1, "B4": 0},
        5: {"C1": 3, "C2": 2, "C3": 1, "C4": 0},
    }
    assert plan_moves(tables) == {
        "A1": 2,
        "A2": 1,
        "A3": 1,
        "A4": 1,
        "B1": 5,
        "B2": 2,
        "B3": 2,
        "B4": 1,
        "C1": 5,
        "C2": 5,
        "C3": 5,
        "C4": 2,
    }


def test_unsorted_negative_and_sparse_table_numbers():
    tables = {10: {"Hi": 1, "Lo": 0}, -3: {"Bottom": 0}, 4: {"Mid": 2, "Mad": 0}}
    assert plan_moves(tables) == {"Bottom": 4, "Mid": 10, "Mad": -3, "Hi": 10, "Lo": 4}


def test_an_empty_table_in_the_middle_receives_players():
    tables = {1: {"A1": 3, "A2": 0}, 2: {}, 3: {"C1": 3, "C2": 0}}
    assert plan_moves(tables) == {"A1": 2, "A2": 1, "C1": 3, "C2": 2}


def test_an_empty_top_table_is_still_the_top():
    tables = {1: {"A1": 3, "A2": 2, "A3": 0}, 2: {}}
    moves = explain_moves(tables)
    assert (moves["A1"].to_table, moves["A1"].reason) == (2, UP)
    assert (moves["A3"].to_table, moves["A3"].reason) == (1, BOTTOM)


def test_an_empty_bottom_table_is_still_the_bottom():
    tables = {1: {}, 2: {"B1": 3, "B2": 2, "B3": 0}}
    moves = explain_moves(tables)
    assert (moves["B1"].to_table, moves["B1"].reason) == (2, TOP)
    assert (moves["B3"].to_table, moves["B3"].reason) == (1, DOWN)


# --- ties: alphabetical order decides, and says so ------------------------------------


def test_tie_at_the_up_boundary():
    tables = {1: FILLER_LOW, 2: {"Bea": 3, "Al": 3, "Cy": 1, "Di": 0}, 3: FILLER_HIGH}
    assert outcomes(tables, 2) == {
        "Al": (3, UP, True),
        "Bea": (2, STAYS, True),
        "Cy": (2, STAYS, False),
        "Di": (1, DOWN, False),
    }


def test_tie_at_the_down_boundary():
    tables = {1: FILLER_LOW, 2: {"Al": 3, "Bo": 2, "Dan": 0, "Cy": 0}, 3: FILLER_HIGH}
    assert outcomes(tables, 2) == {
        "Al": (3, UP, False),
        "Bo": (2, STAYS, False),
        "Cy": (2, STAYS, True),
        "Dan": (1, DOWN, True),
    }


def test_all_tied_table_alphabetical_order_decides_everything():
    tables = {1: FILLER_LOW, 2: {"Di": 1, "Cy": 1, "Bo": 1, "Al": 1}, 3: FILLER_HIGH}
    moves = explain_moves(tables)
    assert outcomes(tables, 2) == {
        "Al": (3, UP, True),
        "Bo": (2, STAYS, True),
        "Cy": (2, STAYS, True),
        "Di": (1, DOWN, True),
    }
    assert [moves[p].rank for p in ("Al", "Bo", "Cy", "Di")] == [1, 2, 3, 4]


def test_all_tied_table_of_two_both_flagged():
    tables = {1: FILLER_LOW, 2: {"Bo": 0, "Al": 0}, 3: FILLER_HIGH}
    assert outcomes(tables, 2) == {"Al": (3, UP, True), "Bo": (1, DOWN, True)}


def test_tie_inside_one_group_is_not_flagged():
    # Al and Bo tie but both move up; Cy ties with them and is the one who lost out.
    games = {"Al": 2, "Bo": 2, "Cy": 2, "Di": 0, "Ed": 0}
    tables = {1: FILLER_LOW, 2: games, 3: FILLER_HIGH}
    assert outcomes(tables, 2) == {
        "Al": (3, UP, True),
        "Bo": (3, UP, True),
        "Cy": (2, STAYS, True),
        "Di": (1, DOWN, False),
        "Ed": (1, DOWN, False),
    }


def test_accents_and_case_are_ignored_when_breaking_ties():
    tables = {1: FILLER_LOW, 2: {"eve": 2, "Eva": 2, "émile": 2}, 3: FILLER_HIGH}
    assert outcomes(tables, 2) == {
        "émile": (3, UP, True),
        "Eva": (2, STAYS, True),
        "eve": (1, DOWN, True),
    }


def test_exact_spelling_breaks_a_tie_that_folding_cannot():
    tables = {1: FILLER_LOW, 2: {"zoë": 1, "Zoe": 1}, 3: FILLER_HIGH}
    assert outcomes(tables, 2) == {"Zoe": (3, UP, True), "zoë": (1, DOWN, True)}


def test_no_tie_flag_when_the_tie_changed_nobodys_table():
    # Al beat Bo alphabetically, but at the top table both stay: the tie decided nothing.
    tables = {1: FILLER_LOW, 2: {"Bo": 3, "Al": 3, "Cy": 1, "Di": 0}}
    assert outcomes(tables, 2) == {
        "Al": (2, TOP, False),
        "Bo": (2, STAYS, False),
        "Cy": (2, STAYS, False),
        "Di": (1, DOWN, False),
    }


def test_no_tie_flag_at_the_bottom_table_where_tied_losers_all_stay():
    tables = {1: {"Al": 3, "Bo": 2, "Dan": 0, "Cy": 0}, 2: FILLER_HIGH}
    assert outcomes(tables, 1) == {
        "Al": (2, UP, False),
        "Bo": (1, STAYS, False),
        "Cy": (1, STAYS, False),
        "Dan": (1, BOTTOM, False),
    }


def test_tie_flag_where_the_tie_decided_who_moves():
    tables = {1: FILLER_LOW, 2: {"Al": 2, "Bo": 2, "Cy": 1, "Di": 0}, 3: FILLER_HIGH}
    assert outcomes(tables, 2) == {
        "Al": (3, UP, True),
        "Bo": (2, STAYS, True),
        "Cy": (2, STAYS, False),
        "Di": (1, DOWN, False),
    }


# --- Move itself ----------------------------------------------------------------------


def test_move_records_games_rank_and_direction():
    tables = {1: FILLER_LOW, 2: {"Al": 3, "Bo": 2, "Cy": 1, "Di": 0}, 3: FILLER_HIGH}
    moves = explain_moves(tables)
    assert moves["Al"] == Move("Al", 2, 3, 3, 1, UP, False)
    assert moves["Bo"] == Move("Bo", 2, 2, 2, 2, STAYS, False)
    assert moves["Di"] == Move("Di", 2, 1, 0, 4, DOWN, False)
    assert [moves[p].direction for p in ("Al", "Bo", "Cy", "Di")] == ["up", "stay", "stay", "down"]
    assert moves["H1"].direction == "stay"
    assert moves["L4"].direction == "stay"


def test_move_is_frozen():
    move = explain_moves({1: {"Al": 1}})["Al"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        move.to_table = 2


# --- bad input ------------------------------------------------------------------------


def test_player_at_two_tables_is_rejected():
    with pytest.raises(ValueError, match="'Al' is seated at tables 1 and 2"):
        plan_moves({1: {"Al": 1, "Bo": 0}, 2: {"Al": 2, "Cy": 1}})


def test_names_differing_only_in_case_are_different_players():
    tables = {1: {"al": 0, "Bo": 0}, 2: {"Al": 0, "Cy": 0}}
    assert plan_moves(tables) == {"al": 2, "Bo": 1, "Al": 2, "Cy": 1}


def test_negative_games_are_rejected():
    with pytest.raises(ValueError, match="Bo"):
        plan_moves({1: {"Al": 1, "Bo": -1}, 2: {"Cy": 0}})


# --- properties -----------------------------------------------------------------------

NAME_ALPHABET = "aAáÁeEéÉëoOöÖzZ"
names = st.text(alphabet=NAME_ALPHABET, min_size=1, max_size=4)


@st.composite
def events(draw, min_players: int = 1, max_players: int = 6, fixed_size: int | None = None):
    """{table number: {player: games}} with 1..12 tables, numbering possibly with gaps."""
    numbers = draw(st.lists(st.integers(-5, 40), min_size=1, max_size=12, unique=True))
    sizes = [
        fixed_size if fixed_size is not None else draw(st.integers(min_players, max_players))
        for _ in numbers
    ]
    total = sum(sizes)
    players = iter(draw(st.lists(names, min_size=total, max_size=total, unique=True)))
    games = iter(draw(st.lists(st.integers(0, 6), min_size=total, max_size=total)))
    return {
        number: {next(players): next(games) for _ in range(size)}
        for number, size in zip(numbers, sizes, strict=True)
    }


def all_players(tables):
    return {player for games in tables.values() for player in games}


def table_of(tables):
    return {player: number for number, games in tables.items() for player in games}


@PROPERTY
@given(events(min_players=0))
def test_everyone_is_placed_exactly_once_at_an_existing_table(tables):
    planned = plan_moves(tables)
    assert set(planned) == all_players(tables)
    assert set(planned.values()) <= set(tables)


@PROPERTY
@given(events(min_players=0))
def test_nobody_moves_more_than_one_existing_table(tables):
    order = sorted(tables)
    seated = table_of(tables)
    for player, to_table in plan_moves(tables).items():
        assert abs(order.index(to_table) - order.index(seated[player])) <= 1


@PROPERTY
@given(events(fixed_size=4))
def test_tables_of_four_stay_tables_of_four(tables):
    sizes = Counter(plan_moves(tables).values())
    assert {number: sizes[number] for number in tables} == dict.fromkeys(tables, 4)


@PROPERTY
@given(events())
def test_each_table_sends_its_quota_each_way(tables):
    numbers = sorted(tables)
    planned = plan_moves(tables)
    for number, games in tables.items():
        per_side = 2 if len(games) > 4 else 1
        went_up = sum(1 for p in games if planned[p] > number)
        went_down = sum(1 for p in games if planned[p] < number)
        assert went_up <= per_side
        assert went_down <= per_side
        if number != numbers[-1]:
            assert went_up == per_side
        if number != numbers[0] and len(games) > 1:
            assert went_down == per_side


@PROPERTY
@given(events(min_players=0))
def test_top_table_never_sends_up_and_bottom_never_sends_down(tables):
    top, bottom = max(tables), min(tables)
    planned = plan_moves(tables)
    assert all(planned[p] <= top for p in tables[top])
    assert all(planned[p] >= bottom for p in tables[bottom])
    moves = explain_moves(tables)
    assert all(moves[p].reason is not UP for p in tables[top])
    assert all(moves[p].reason is not DOWN for p in tables[bottom])


@PROPERTY
@given(events(), st.randoms())
def test_result_does_not_depend_on_insertion_order(tables, rnd):
    numbers = list(tables)
    rnd.shuffle(numbers)
    shuffled = {}
    for number in numbers:
        items = list(tables[number].items())
        rnd.shuffle(items)
        shuffled[number] = dict(items)
    assert explain_moves(shuffled) == explain_moves(tables)
    assert plan_moves(shuffled) == plan_moves(tables)


@PROPERTY
@given(events(min_players=0))
def test_plan_moves_is_the_destinations_of_explain_moves(tables):
    moves = explain_moves(tables)
    assert plan_moves(tables) == {player: move.to_table for player, move in moves.items()}
    seated = table_of(tables)
    for player, move in moves.items():
        assert move.player == player
        assert move.from_table == seated[player]
        assert move.games == tables[move.from_table][player]


@PROPERTY
@given(events())
def test_more_games_never_ends_lower_than_fewer_at_the_same_table(tables):
    planned = plan_moves(tables)
    for games in tables.values():
        for better in games:
            for worse in games:
                if games[better] > games[worse]:
                    assert planned[better] >= planned[worse]


@PROPERTY
@given(events())
def test_reason_agrees_with_direction_and_ranks_are_one_to_n(tables):
    moves = explain_moves(tables)
    expected_direction = {UP: "up", DOWN: "down", TOP: "stay", BOTTOM: "stay", STAYS: "stay"}
    for move in moves.values():
        assert move.direction == expected_direction[move.reason]
    for games in tables.values():
        assert sorted(moves[p].rank for p in games) == list(range(1, len(games) + 1))


@PROPERTY
@given(events())
def test_distinct_games_at_a_table_never_flag_a_tie(tables):
    moves = explain_moves(tables)
    for games in tables.values():
        if len(set(games.values())) == len(games):
            assert not any(moves[p].tie_broken for p in games)
