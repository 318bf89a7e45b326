"""At an event with a scoring clause a screen table ends a game as it ends a trick: its
players point at who won it, the game goes to the player they agree on, and the
organizer settles a game they cannot agree on; the clock never waits for them."""

from __future__ import annotations

import pytest

from tables.models import CorrectionAction, DealEnd, Game, GameClaim, GameCorrection, GameStatus
from tables.writes.game_claims import point_at_winner, settle_game_winner
from tables.writes.screen_organizer import end_game_as_it_stands
from tables.writes.screen_play import game_of
from tests import factories
from tests.screen_factories import (
    deal_at,
    device_of,
    everyone_claims,
    everyone_points,
    key,
    play_out,
    play_trick,
    scoring_event,
    screen_event,
    short_hands,
)
from tournament.common.errors import Refused
from tournament.models import Player
from tournament.writes.rounds import close_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def playing(organizer, monkeypatch):
    """Round 1 of a scoring-clause event (table 1 wins with the fewest tricks), two
    tricks a game."""
    short_hands(monkeypatch, cards=2)
    return factories.start_rounds(scoring_event(owner=organizer))


def _players(deal) -> list[Player]:
    return list(Player.objects.filter(pk__in=deal.seats).order_by("pk"))


def _most_and_fewest(deal) -> tuple[int, int]:
    """The player with the most tricks and one with none: what the two scorings give."""
    tricks = game_of(deal).tricks
    return max(tricks, key=tricks.__getitem__), min(tricks, key=tricks.__getitem__)


def test_every_table_waits_for_its_players_to_name_the_winner(playing):
    for number in (1, 2):  # the fewest-wins table and the other one alike
        deal = play_out(playing, number)
        assert game_of(deal).over
        assert deal_at(playing, number).pk == deal.pk  # still in play
    assert not Game.objects.exists()


def test_when_everyone_points_at_one_player_the_game_is_theirs_and_the_next_is_dealt(playing):
    deal = play_out(playing, 1)
    most, _none = _most_and_fewest(deal)
    # The clash is the point: the table gives the game to the player it names, not to
    # the one its tricks would give at a fewest-wins table.
    done = everyone_claims(deal, most)
    game = done.game
    assert (game.winner_id, game.status, game.finished) == (most, GameStatus.CONFIRMED, True)
    assert game.tricks[str(most)] == 2
    deal.refresh_from_db()
    assert (deal.end, deal.game_id) == (DealEnd.PLAYED_OUT, game.pk)
    assert deal_at(playing, 1).number == 2


def test_a_claim_is_stored_once_and_a_key_names_one_claim(playing):
    deal = play_out(playing, 2)
    me, other = _players(deal)[:2]
    device = device_of(me)
    first = point_at_winner(player=me, winner_id=other.pk, client_key="same-key", device=device)
    again = point_at_winner(player=me, winner_id=other.pk, client_key="same-key", device=device)
    assert (first.repeated, again.repeated) == (False, True)
    assert GameClaim.objects.filter(deal=deal).count() == 1
    with pytest.raises(Refused, match="already used for another move"):
        point_at_winner(player=me, winner_id=me.pk, client_key="same-key", device=device)
    assert GameClaim.objects.get(deal=deal).winner_id == other.pk


def test_a_claim_made_on_a_screen_that_showed_another_game_is_refused(playing):
    deal = play_out(playing, 2)
    me = _players(deal)[0]
    device = device_of(me)
    with pytest.raises(Refused, match="moved on"):
        point_at_winner(
            player=me, winner_id=me.pk, client_key=key(), device=device, deal_id=deal.pk + 1000
        )
    with pytest.raises(Refused, match="moved on"):
        point_at_winner(player=me, winner_id=me.pk, client_key=key(), device=device, taken=1)
    assert not GameClaim.objects.exists()


def test_nobody_points_at_a_winner_before_the_last_trick_is_taken(playing):
    deal, cards = play_trick(playing, 1)
    everyone_points(deal, cards[game_of(deal).trick.leader])
    me = _players(deal)[0]
    with pytest.raises(Refused, match="once its last trick is taken"):
        point_at_winner(player=me, winner_id=me.pk, client_key=key(), device=device_of(me))


def test_a_player_away_from_the_table_is_no_winner_there(playing):
    deal = play_out(playing, 1)
    stranger = Player.objects.exclude(pk__in=deal.seats).first()
    me = _players(deal)[0]
    with pytest.raises(Refused, match="not playing this game"):
        point_at_winner(player=me, winner_id=stranger.pk, client_key=key(), device=device_of(me))


def test_a_disagreement_names_nobody_until_the_organizer_settles_it(playing, organizer):
    deal = play_out(playing, 1)
    most, none = _most_and_fewest(deal)
    done = everyone_claims(deal, most, but={none: none})
    assert done.game is None
    assert not Game.objects.exists()
    settled = settle_game_winner(
        event=playing, table_number=1, winner_id=none, by=organizer, deal_id=deal.pk
    )
    assert (settled.game.winner_id, settled.game.status) == (none, GameStatus.SETTLED)
    log = GameCorrection.objects.get()
    assert log.action == CorrectionAction.SETTLED
    names = dict(Player.objects.values_list("pk", "name"))
    assert sorted(log.before["claims"]) == sorted([names[most], names[none]])
    assert deal_at(playing, 1).number == 2
    with pytest.raises(Refused, match="already ended"):  # the page pressed twice
        settle_game_winner(
            event=playing, table_number=1, winner_id=none, by=organizer, deal_id=deal.pk
        )


def test_the_organizer_ends_a_game_by_naming_its_winner_never_by_its_tricks(playing, organizer):
    deal, cards = play_trick(playing, 1)
    everyone_points(deal, cards[game_of(deal).trick.leader])
    with pytest.raises(Refused, match="give it to a player"):
        end_game_as_it_stands(event=playing, table_number=1, by=organizer)
    winner = deal.seats[-1]
    done = settle_game_winner(event=playing, table_number=1, winner_id=winner, by=organizer)
    assert (done.game.winner_id, done.game.finished) == (winner, False)
    deal.refresh_from_db()
    assert deal.end == DealEnd.ORGANIZER
    assert GameCorrection.objects.get().action == CorrectionAction.ADDED
    # A game with no trick taken still ends uncounted, as anywhere.
    assert end_game_as_it_stands(event=playing, table_number=1, by=organizer) is None


def test_at_time_up_the_players_still_name_the_winner_of_the_game_cut_off(playing, organizer):
    deal, cards = play_trick(playing, 1)
    everyone_points(deal, cards[game_of(deal).trick.leader])
    untouched = deal_at(playing, 2)
    playing.end_clock_now()
    playing.save()
    most, _none = _most_and_fewest(deal)
    game = everyone_claims(deal, most).game
    assert (game.winner_id, game.finished) == (most, False)
    deal.refresh_from_db()
    assert deal.end == DealEnd.TIME_UP
    assert not type(deal).objects.filter(table=deal.table, ended_at__isnull=True).exists()
    me = _players(deal)[0]
    with pytest.raises(Refused, match="Time is up"):  # given already; nothing dealt after it
        point_at_winner(player=me, winner_id=me.pk, client_key=key(), device=device_of(me))
    close_round(round_=factories.current_round(playing), by=organizer)
    assert list(Game.objects.values_list("table__number", "winner_id")) == [(1, most)]
    untouched.refresh_from_db()
    assert untouched.end == DealEnd.ABANDONED  # no trick taken: nothing to count or claim


def test_the_close_never_waits_a_game_left_unagreed_counts_by_its_tricks(playing, organizer):
    deal = play_out(playing, 1)
    most, none = _most_and_fewest(deal)
    everyone_claims(deal, most, but={none: none})
    close_round(round_=factories.current_round(playing), by=organizer)
    game = Game.objects.get()
    # Table 1 wins with the fewest tricks: the close counts as at any event.
    assert game.tricks[str(game.winner_id)] == 0
    assert game.finished


def test_an_event_without_a_scoring_clause_counts_its_games_by_themselves(organizer, monkeypatch):
    short_hands(monkeypatch, cards=2)
    event = factories.start_rounds(screen_event(owner=organizer))
    deal = deal_at(event, 1)
    while (trick := game_of(deal).trick) is not None:
        _deal, cards = play_trick(event, 1)
        done = everyone_points(deal, cards[trick.leader])
    assert done.game is not None
    me = _players(deal)[0]
    with pytest.raises(Refused, match="counts by itself"):
        point_at_winner(player=me, winner_id=me.pk, client_key=key(), device=device_of(me))
    with pytest.raises(Refused, match="counts by itself"):
        settle_game_winner(event=event, table_number=1, winner_id=me.pk, by=organizer)
