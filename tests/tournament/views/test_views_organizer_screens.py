"""The console at a screen event: the table page watches the game in play, and the
organizer settles a trick, plays for a player who is gone, or ends a game; the players'
personal links."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tables.models import Game, Play, TakenTrick
from tables.writes.screen_play import game_of
from tests import factories
from tests.screen_factories import deal_at, play_trick, screen_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def playing(organizer):
    return factories.start_rounds(screen_event(owner=organizer))


def _table(event, number=1):
    return reverse("organizer:table", args=[event.pk, number])


def test_the_table_page_shows_the_trick_and_the_pointing(signed_in, playing):
    _deal, cards = play_trick(playing, 1)
    page = signed_in.get(_table(playing)).content.decode()
    assert "On screens: game 1" in page
    for card in cards.values():
        assert f'id="settle-{card}"' in page
    assert "Who won? Tap the winner" not in page


def test_the_organizer_settles_a_trick_from_the_table_page(signed_in, playing):
    deal, cards = play_trick(playing, 1)
    card = cards[deal.seats[3]]
    answer = signed_in.post(
        reverse("organizer:screen_settle", args=[playing.pk, 1]), {"card": card, "trick": 1}
    )
    assert answer.status_code == 302
    taken = TakenTrick.objects.get(deal=deal)
    assert taken.settled
    assert taken.taker_id == deal.seats[3]


def test_the_organizer_plays_for_a_player_who_is_gone(signed_in, playing):
    deal = deal_at(playing, 1)
    page = signed_in.get(_table(playing)).content.decode()
    first = game_of(deal).trick.to_play
    card = deal.hands_by_player[first][0]
    assert f'id="play-for-{card}"' in page  # nobody has opened their link: all are gone
    signed_in.post(
        reverse("organizer:screen_play_for", args=[playing.pk, 1]),
        {"card": card, "player": first},
    )
    assert Play.objects.get(deal=deal).by_organizer


def test_ending_a_game_with_no_trick_counts_nothing_and_deals_again(signed_in, playing):
    first = deal_at(playing, 1)
    url = reverse("organizer:screen_end_game", args=[playing.pk, 1, first.pk])
    signed_in.post(url)
    assert not Game.objects.exists()
    assert deal_at(playing, 1).number == 2
    signed_in.post(url)  # pressed twice: the next game goes on
    assert deal_at(playing, 1).number == 2


def test_the_personal_links_page_lists_every_player_with_a_qr_code(signed_in, playing):
    page = signed_in.get(reverse("organizer:player_links", args=[playing.pk])).content.decode()
    players = list(playing.players.all())
    assert len(players) == 10
    for player in players:
        assert f"/t/p/{player.token}/" in page
    assert page.count("<svg") >= 10


def test_the_tricks_csv_downloads_from_the_records(signed_in, playing):
    from tests.screen_factories import everyone_points

    deal, cards = play_trick(playing, 1)
    everyone_points(deal, next(iter(cards.values())))
    answer = signed_in.get(reverse("organizer:tricks_csv", args=[playing.pk]))
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/csv")
    lines = answer.content.decode("utf-8-sig").splitlines()
    assert lines[0].startswith("Round,Table,Game")
    assert len(lines) == 1 + 1
