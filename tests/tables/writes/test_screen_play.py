"""Playing on screens: the deal at each phase, plays stored once, pointing until agreement,
games counted by themselves, and the organizer's hand."""

from __future__ import annotations

import pytest

from tables.models import Deal, DealEnd, Game, GameStatus, Play, Pointing, TakenTrick
from tables.writes.screen_organizer import end_game_as_it_stands, play_for_player, settle_trick
from tables.writes.screen_play import game_of, play_card, point_at_card
from tables.writes.screen_seats import hold_seat
from tests import factories
from tests.screen_factories import (
    deal_at,
    device_of,
    everyone_points,
    key,
    play_trick,
    screen_event,
)
from tournament.common.errors import Refused
from tournament.models import Phase, Player
from tournament.writes.rounds import advance_phase, close_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def playing(organizer):
    event = screen_event(owner=organizer)
    return factories.start_rounds(event)


def test_study_and_practice_deal_uncounted_games_that_round_one_drops(organizer):
    event = screen_event(owner=organizer)
    assert not Deal.objects.exists()
    event = advance_phase(event=event)  # study: the rules in view, and cards to try them
    assert deal_at(event, 1).practice
    event = advance_phase(event=event)  # practice: the study's deal dropped, a new one
    assert event.phase == Phase.PRACTICE
    practice = deal_at(event, 1)
    assert practice.practice
    assert len(practice.seats) == 5
    assert sum(map(len, practice.hands.values())) == 28
    advance_phase(event=event)
    practice.refresh_from_db()
    assert practice.end == DealEnd.ABANDONED
    assert not deal_at(event, 1).practice


def test_a_play_is_stored_once_whatever_the_retries(playing):
    deal = deal_at(playing, 1)
    player = Player.objects.get(pk=game_of(deal).trick.to_play)
    card = game_of(deal).hands[player.pk][-1]
    first = play_card(player=player, card=card, client_key="same", device=device_of(player))
    again = play_card(player=player, card=card, client_key="same", device=device_of(player))
    assert not first.repeated
    assert again.repeated
    assert Play.objects.filter(deal=deal).count() == 1


def test_any_card_of_the_hand_is_taken_in_turn_and_out_of_turn_waits(playing):
    deal = deal_at(playing, 1)
    game = game_of(deal)
    leader = Player.objects.get(pk=game.trick.to_play)
    other = Player.objects.get(pk=game.trick.players[1])
    with pytest.raises(Refused, match="Wait for your turn"):
        play_card(player=other, card=game.hands[other.pk][0], client_key=key(), device="d")
    play_card(player=leader, card=game.hands[leader.pk][3], client_key=key(), device="d")
    assert Play.objects.filter(deal=deal).count() == 1


def test_a_trick_is_taken_only_when_everyone_points_at_one_card(playing):
    deal, cards = play_trick(playing, 1)
    ids = list(deal.seats)
    first, second = cards[ids[0]], cards[ids[1]]
    for number, player_id in enumerate(ids):
        player = Player.objects.get(pk=player_id)
        pointed = second if number == 0 else first
        point_at_card(
            player=player, trick=1, card=pointed, client_key=key(), device=device_of(player)
        )
    assert not TakenTrick.objects.exists()
    first_player = Player.objects.get(pk=ids[0])
    changed = point_at_card(
        player=first_player, trick=1, card=first, client_key=key(), device=device_of(first_player)
    )
    taken = changed.taken
    assert taken.taker_id == ids[0]
    assert taken.disagreed
    assert not taken.settled
    assert Pointing.objects.filter(deal=deal, trick=1).count() == 6
    assert game_of(deal).trick.leader == ids[0]


def test_a_game_played_out_is_counted_by_itself_and_the_next_is_dealt(playing):
    deal = deal_at(playing, 1)
    while True:
        deal, cards = play_trick(playing, 1)
        done = everyone_points(deal, next(iter(cards.values())))
        if done.game is not None:
            break
    game = done.game
    assert game.status == GameStatus.CONFIRMED
    assert game.finished
    assert sum(game.tricks.values()) == 6
    # Kept by player id, as a report's tricks are; the winner took the most.
    assert set(game.tricks) == {str(player) for player in deal.seats}
    assert game.tricks[str(game.winner_id)] == max(game.tricks.values())
    following = deal_at(playing, 1)
    assert following.number == 2
    assert following.dealer_id == deal.seats[1]


def test_closing_counts_the_game_in_play_by_tricks_so_far(playing, organizer):
    deal, cards = play_trick(playing, 2)
    everyone_points(deal, next(iter(cards.values())))
    untouched = deal_at(playing, 1)
    close_round(round_=factories.current_round(playing), by=organizer)
    game = Game.objects.get(table__number=2)
    assert not game.finished
    assert sum(game.tricks.values()) == 1
    untouched.refresh_from_db()
    assert untouched.end == DealEnd.ABANDONED
    assert untouched.game is None


def test_no_card_is_taken_once_time_is_up(playing):
    playing.end_clock_now()
    playing.save()
    deal = deal_at(playing, 1)
    player = Player.objects.get(pk=game_of(deal).trick.to_play)
    with pytest.raises(Refused, match="Time is up"):
        play_card(
            player=player, card=game_of(deal).hands[player.pk][0], client_key=key(), device="d"
        )


def test_a_second_device_takes_the_seat_and_the_first_is_refused(playing):
    deal = deal_at(playing, 1)
    player = Player.objects.get(pk=game_of(deal).trick.to_play)
    assert hold_seat(player=player, device="laptop") is False
    assert hold_seat(player=player, device="phone") is True
    with pytest.raises(Refused, match="another device"):
        play_card(
            player=player, card=game_of(deal).hands[player.pk][0], client_key=key(), device="laptop"
        )
    play_card(
        player=player, card=game_of(deal).hands[player.pk][0], client_key=key(), device="phone"
    )


def test_the_organizer_settles_plays_for_the_gone_and_ends_a_game(playing, organizer):
    deal = deal_at(playing, 1)
    gone = game_of(deal).trick.to_play
    play_for_player(event=playing, player_id=gone, card=game_of(deal).hands[gone][0], by=organizer)
    assert Play.objects.get(deal=deal).by_organizer
    deal, cards = play_trick(playing, 1)
    card = cards[deal.seats[2]]
    done = settle_trick(event=playing, table_number=1, trick=1, card=card, by=organizer)
    assert done.taken.settled
    assert done.taken.taker_id == deal.seats[2]
    game = end_game_as_it_stands(event=playing, table_number=1, by=organizer)
    assert game.winner_id == deal.seats[2]
    assert not game.finished
    assert deal_at(playing, 1).number == 2


def test_time_added_after_an_undone_close_deals_where_no_game_is_in_play(playing, organizer):
    from tournament.writes.rounds import ClockAction, change_clock, undo_close_round

    close_round(round_=factories.current_round(playing), by=organizer)
    undo_close_round(event=playing)
    playing.refresh_from_db()
    assert not Deal.objects.filter(ended_at__isnull=True).exists()
    change_clock(event=playing, action=ClockAction.ADD_MINUTE)
    assert deal_at(playing, 1).number == 2  # game 1 was counted (or dropped) at the close
    assert deal_at(playing, 2).number == 2


def test_a_finished_event_keeps_its_plays_read_only(playing, organizer):
    from tournament.writes.finishing import finish_event

    deal, _cards = play_trick(playing, 1)
    player = Player.objects.get(pk=deal.seats[0])
    event = factories.play_until(playing, Phase.DEBRIEF, by=organizer)
    finish_event(event=event)
    with pytest.raises(Refused, match="The event is over"):
        play_card(player=player, card="7H", client_key=key(), device=device_of(player))
    with pytest.raises(Refused):
        end_game_as_it_stands(event=event, table_number=1, by=organizer)
    assert Play.objects.filter(deal=deal).count() == 5


def test_a_phone_report_at_a_screen_table_is_refused(playing):
    from tables.writes.reporting import report_game

    table = factories.table(playing, 1)
    winner = Player.objects.get(pk=deal_at(playing, 1).seats[0])
    with pytest.raises(Refused, match="count by themselves"):
        report_game(table=table, round_number=1, client_key="k-report-1", winner=winner)


def test_the_close_preview_counts_the_games_in_play_as_the_close_does(playing, organizer):
    from tournament.reads.close_preview import preview_close
    from tournament.rules.movement import seating_fingerprint

    deal, cards = play_trick(playing, 2)
    everyone_points(deal, cards[deal.seats[3]])
    round_ = factories.current_round(playing)
    preview = preview_close(round_)
    taker = Player.objects.get(pk=deal.seats[3]).name
    assert preview.standings[2][taker] == 1
    expected = seating_fingerprint(preview.seating)
    close_round(round_=round_, by=organizer, expected_moves=expected)  # no MovesChanged
    assert Game.objects.get(table__number=2).winner.name == taker


def test_a_player_dealt_in_during_practice_is_marked_removed_not_deleted(organizer):
    from tournament.writes.seating import remove_player

    event = advance_phase(event=screen_event(owner=organizer))  # study: dealt in
    player = Player.objects.get(pk=deal_at(event, 1).seats[0])
    assert remove_player(player=player) is False
    assert Player.objects.filter(pk=player.pk).exists()


def test_a_player_marked_absent_in_practice_gets_their_table_dealt_again(organizer):
    from tournament.models import PlayerStatus
    from tournament.writes.seating import set_player_status

    event = advance_phase(event=screen_event(owner=organizer))
    first, other = deal_at(event, 1), deal_at(event, 2)
    gone = Player.objects.get(pk=first.seats[0])
    set_player_status(player=gone, status=PlayerStatus.ABSENT)
    again = deal_at(event, 1)
    assert again.pk != first.pk
    assert gone.pk not in again.seats
    assert len(again.seats) == 4
    assert deal_at(event, 2).pk == other.pk
