"""What the phone pages show, read without a request: the table's screen, the player's
screen, and the direction of a move in the movement's own words."""

from __future__ import annotations

import pytest

from tables.reads.screens import move_direction, player_screen, seated_players, table_screen
from tables.writes.corrections import delete_game
from tables.writes.screen_play import game_of
from tests import factories
from tests.factories import table
from tests.screen_factories import deal_at, everyone_points, play_trick, screen_event
from tournament.models import Player, Seat
from tournament.rules.movement import Move, Reason


@pytest.mark.parametrize("from_table", [1, 2, 3])
@pytest.mark.parametrize("to_table", [1, 2, 3])
def test_a_move_has_the_direction_the_movement_gives_it(from_table, to_table):
    planned = Move(
        "Al", from_table, to_table, games=0, rank=1, reason=Reason.STAYS, tie_broken=False
    )
    assert move_direction(from_table, to_table) == planned.direction


@pytest.fixture
def between(organizer):
    """Round 1 closed at two tables; at table 1 one player won both games."""
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=8, tables=2))
    winner = seated_players(event.current_round, table(event, 1))[0]
    factories.report(event, 1, winner)
    factories.report(event, 1, winner, game_number=2)
    return factories.play_until(event, "between", by=organizer), winner


@pytest.mark.django_db
def test_the_table_screen_says_who_moves_up_and_who_stays(between):
    event, winner = between

    screen = table_screen(table(event, 1))

    directions = {move.name: move.direction for move in screen.moves}
    assert directions.pop(winner.name) == "up"
    assert set(directions.values()) == {"stay"}  # table 1 is the lowest: nobody moves down


@pytest.mark.django_db
def test_the_player_screen_says_where_the_winner_goes(between):
    event, winner = between

    screen = player_screen(event, winner)

    assert screen.direction == "up"
    assert screen.next_seat == Seat.objects.get(player=winner, round__number=2)
    assert screen.games_won == 2


@pytest.mark.django_db
def test_the_seated_players_come_in_the_tables_order(organizer):
    event = factories.seated_event(owner=organizer, players=["zoë", "Émile", "Bruno"], tables=1)
    round_ = event.rounds.get(number=1)
    assert [p.name for p in seated_players(round_, table(event, 1))] == ["Bruno", "Émile", "zoë"]


@pytest.mark.django_db
def test_a_chosen_game_the_organizer_deleted_is_not_asked_again(organizer):
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=8, tables=2))
    winner = seated_players(event.current_round, table(event, 1))[0]
    factories.report(event, 1, winner)
    second = factories.report(event, 1, winner, game_number=2)
    factories.report(event, 1, winner, game_number=3)
    delete_game(game=second.game, by=organizer)

    screen = table_screen(table(event, 1), chosen_game=2)

    assert (screen.chosen_game, screen.asked_game) == (None, 4)


def test_a_chosen_game_is_asked_only_while_the_round_is_open_and_this_phone_has_not_answered(
    organizer,
):
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=8, tables=2))
    winner = seated_players(event.current_round, table(event, 1))[0]
    factories.report(event, 1, winner)
    factories.report(event, 1, winner, game_number=2)

    open_round = table_screen(table(event, 1), chosen_game=1)
    answered = table_screen(table(event, 1), chosen_game=1, mine={1})
    not_yet_played = table_screen(table(event, 1), chosen_game=5)
    event = factories.play_until(event, "between", by=organizer)
    closed = table_screen(table(event, 1), chosen_game=1)

    assert (open_round.chosen_game, open_round.asked_game) == (1, 1)
    assert (answered.chosen_game, answered.asked_game) == (None, 3)
    assert (not_yet_played.chosen_game, not_yet_played.asked_game) == (None, 3)
    assert (closed.chosen_game, closed.asked_game) == (None, 3)


@pytest.mark.django_db
def test_at_time_up_a_player_s_count_holds_the_game_cut_off_as_the_close_counts_it(organizer):
    event = factories.start_rounds(screen_event(owner=organizer, players=8, tables=2))
    deal, played = play_trick(event, 1)
    leader = game_of(deal).trick.leader
    everyone_points(deal, played[leader])
    taker = Player.objects.get(pk=leader)
    others = [Player.objects.get(pk=pk) for pk in deal.seats if pk != leader]
    at_table_2 = Player.objects.get(pk=deal_at(event, 2).seats[0])
    assert player_screen(event, taker).games_won == 0  # in play: not decided yet

    event.end_clock_now()
    event.save_and_bump(["clock_ends_at", "clock_paused_remaining"])
    event.refresh_from_db()
    at_time_up = {p.pk: player_screen(event, p).games_won for p in [taker, *others, at_table_2]}
    assert at_time_up[taker.pk] == 1  # the one trick taken wins the game cut off
    assert {at_time_up[p.pk] for p in others} == {0}
    assert at_time_up[at_table_2.pk] == 0  # no trick taken there: counts for nobody

    event = factories.close_current_round(event, by=organizer)
    after = {p.pk: player_screen(event, p).games_won for p in [taker, *others, at_table_2]}
    assert after == at_time_up  # between rounds, the close counted it the same way
