"""A scoring-clause event over HTTP, as the players' browsers send it: every table points
at the winner of a game once its last trick is taken, a claim counts once, no screen
names a winner before the table agrees, and the organizer settles from the console.
The cards are played and pointed at through the pages too."""

from __future__ import annotations

import re
import uuid
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tables.models import Game, GameClaim, GameStatus
from tables.writes.screen_play import game_of
from tests import factories
from tests.screen_factories import deal_at, scoring_event, screen_event, short_hands
from tournament.common.phone_ids import signed_phone_id
from tournament.models import Player
from tournament.reads.radar import build_radar
from tournament.writes.rounds import ClockAction, change_clock

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
WON = re.compile(r"You have won (\d+) games? this round")


@pytest.fixture
def playing(organizer, monkeypatch):
    """Round 1 of a scoring-clause event (table 1 wins with the fewest tricks), two
    tricks a game."""
    short_hands(monkeypatch, cards=2)
    return factories.start_rounds(scoring_event(owner=organizer))


def _url(name: str, player_id: int) -> str:
    return reverse(f"phone:{name}", args=[Player.objects.get(pk=player_id).token])


def _browsers(event) -> dict[int, Client]:
    """Each player's own browser, holding their seat (it opened their link first)."""
    browsers = {}
    for player in event.players.all():
        browser = Client()
        browser.cookies["ft_phone"] = signed_phone_id(f"phone-of-player-{player.pk:04d}")
        assert browser.get(_url("screen", player.pk)).status_code == 200
        browsers[player.pk] = browser
    return browsers


def _post(browser: Client, url: str, data: dict, key: str | None = None):
    return browser.post(url, {**data, "key": key or uuid.uuid4().hex}, headers=HTMX)


def _play_out(browsers, event, number: int):
    """The table's game played from the players' screens, each trick pointed at its
    leader's card (so the first leader takes every trick)."""
    deal = deal_at(event, number)
    while (trick := game_of(deal).trick) is not None:
        while (player := trick.to_play) is not None:
            card = game_of(deal).hands[player][0]
            fields = {"card": card, "deal": deal.pk, "trick": trick.number}
            assert _post(browsers[player], _url("screen_play", player), fields).status_code == 200
            trick = game_of(deal).trick
            assert trick is not None  # the trick is complete, not taken yet
        card = dict(trick.plays)[trick.leader]
        for player in deal.seats:
            fields = {"card": card, "deal": deal.pk, "trick": trick.number}
            _post(browsers[player], _url("screen_point", player), fields)
    return deal


def _claim(browsers, deal, player: int, winner: int, key: str | None = None):
    fields = {"winner": winner, "deal": deal.pk, "taken": game_of(deal).taken}
    return _post(browsers[player], _url("screen_claim", player), fields, key)


def _screen(browsers, player: int) -> str:
    return browsers[player].get(_url("screen", player)).content.decode()


def _projected(event) -> str:
    """The projector's words, without its markup and its clock."""
    page = Client().get(reverse("projector:screen", args=[event.projector_token]))
    words = re.sub(r"<[^>]+>", " ", page.content.decode())
    return re.sub(r"\s+", " ", re.sub(r"\d+:\d\d", "", words))


def _won(page: str) -> int:
    found = WON.search(page)
    assert found is not None
    return int(found.group(1))


def test_every_table_points_at_the_games_winner_and_nobody_is_named(playing):
    browsers = _browsers(playing)
    deals = {number: _play_out(browsers, playing, number) for number in (1, 2)}
    assert not Game.objects.exists()
    for deal in deals.values():  # the fewest-wins table and the other alike
        for player in deal.seats:
            page = _screen(browsers, player)
            assert "The game is over. Point at who won it:" in page
            assert all(f'id="claim-{seat}"' in page for seat in deal.seats)
            assert 'class="claim-choice" data-pointers="" aria-pressed="false"' in page
            assert _won(page) == 0  # the 0-trick players at table 1 too
    # A player tapping a card meanwhile has none; the page offers only the claim.
    assert "Your turn" not in _screen(browsers, deals[1].seats[0])


def test_a_game_is_counted_only_once_the_whole_table_agrees(playing, signed_in):
    browsers = _browsers(playing)
    projected = _projected(playing)  # every player's games won this round: none
    deal = _play_out(browsers, playing, 1)
    tricks = game_of(deal).tricks
    most = max(tricks, key=tricks.__getitem__)
    *agreeing, last = deal.seats
    for player in agreeing:
        assert _claim(browsers, deal, player, most)["X-Action-Stored"] == "1"
    _claim(browsers, deal, last, last)  # the clash: one player names themselves
    page = _screen(browsers, deal.seats[0])
    assert "The table points at different players." in page
    assert f'data-pointers="{last}" aria-pressed="false"' in page
    console = signed_in.get(reverse("organizer:table", args=[playing.pk, 1])).content.decode()
    assert "The players point at different winners." in console
    assert not Game.objects.exists()
    assert all(_won(_screen(browsers, player)) == 0 for player in deal.seats)
    assert _projected(playing) == projected
    # The last player comes round: the game is theirs to give, and it is given.
    assert _claim(browsers, deal, last, most)["X-Action-Stored"] == "1"
    game = Game.objects.get()
    assert (game.winner_id, game.status) == (most, GameStatus.CONFIRMED)
    assert _projected(playing) != projected
    for player in deal.seats:
        page = _screen(browsers, player)
        assert _won(page) == (1 if player == most else 0)
        assert "Point at who won" not in page  # the next game is dealt
    assert deal_at(playing, 1).number == 2


def test_a_claim_tapped_once_counts_once_whatever_the_retries(playing):
    browsers = _browsers(playing)
    deal = _play_out(browsers, playing, 2)
    me, other = deal.seats[:2]
    first = _claim(browsers, deal, me, other, key="claim-key-0001")
    again = _claim(browsers, deal, me, other, key="claim-key-0001")
    assert first["X-Action-Stored"] == again["X-Action-Stored"] == "1"
    assert GameClaim.objects.filter(player_id=me).count() == 1
    reused = _claim(browsers, deal, me, me, key="claim-key-0001")
    assert (reused.status_code, reused["X-Action-Refused"]) == (409, "1")
    assert "already used for another move" in reused.content.decode()
    assert GameClaim.objects.get(player_id=me).winner_id == other


def test_a_claim_queued_on_a_screen_that_showed_another_game_is_refused(playing):
    browsers = _browsers(playing)
    deal = _play_out(browsers, playing, 2)
    me = deal.seats[0]
    stale = {"winner": me, "deal": deal.pk, "taken": 1}  # the screen showed one trick taken
    answer = _post(browsers[me], _url("screen_claim", me), stale)
    assert answer.status_code == 409
    assert "moved on" in answer.content.decode()
    assert not GameClaim.objects.exists()


def test_at_time_up_the_game_cut_off_is_pointed_at_and_counted_once_agreed(playing):
    browsers = _browsers(playing)
    deal = deal_at(playing, 1)
    trick = game_of(deal).trick
    while (player := trick.to_play) is not None:
        fields = {"card": game_of(deal).hands[player][0], "deal": deal.pk, "trick": 1}
        _post(browsers[player], _url("screen_play", player), fields)
        trick = game_of(deal).trick
    for player in deal.seats:
        fields = {"card": dict(trick.plays)[trick.leader], "deal": deal.pk, "trick": 1}
        _post(browsers[player], _url("screen_point", player), fields)
    playing.end_clock_now()
    playing.save_and_bump(["clock_ends_at", "clock_paused_remaining"])
    taker = trick.leader
    page = _screen(browsers, deal.seats[0])
    assert "Point at who won the game cut off" in page
    assert _won(_screen(browsers, taker)) == 0  # not by its tricks: the table says
    for player in deal.seats:
        _claim(browsers, deal, player, taker)
    page = _screen(browsers, taker)
    assert _won(page) == 1
    assert "Time is up: wait for the organizer to close the round." in page


def test_the_organizer_settles_a_stalled_claim_from_the_table_page(playing, signed_in):
    browsers = _browsers(playing)
    deal = _play_out(browsers, playing, 1)
    first, second, *_rest = deal.seats
    _claim(browsers, deal, first, first)
    _claim(browsers, deal, second, second)
    later = timezone.now() + timedelta(seconds=playing.screen_stall_seconds + 5)
    flags = [flag for line in build_radar(playing, now=later) for flag in line.flags]
    assert any(flag.kind == "stall" and "different winners" in flag.text for flag in flags)
    page = signed_in.get(reverse("organizer:table", args=[playing.pk, 1])).content.decode()
    assert all(f'id="settle-game-{seat}"' in page for seat in deal.seats)
    signed_in.post(
        reverse("organizer:screen_give_game", args=[playing.pk, 1, deal.pk]), {"winner": second}
    )
    game = Game.objects.get()
    assert (game.winner_id, game.status) == (second, GameStatus.SETTLED)
    assert _won(_screen(browsers, second)) == 1


def test_without_a_scoring_clause_a_game_counts_by_itself_as_before(organizer, monkeypatch):
    short_hands(monkeypatch, cards=2)
    event = factories.start_rounds(screen_event(owner=organizer))
    browsers = _browsers(event)
    deal = _play_out(browsers, event, 1)
    game = Game.objects.get()
    page = _screen(browsers, game.winner_id)
    assert _won(page) == 1
    assert "Point at who won" not in page
    refused = _claim(browsers, deal, deal.seats[0], deal.seats[0])
    assert refused.status_code == 409
    assert "counts by itself" in refused.content.decode()


@pytest.mark.parametrize("claims", [True, False])
def test_the_console_says_what_time_up_means_at_the_event(organizer, signed_in, claims):
    """With a scoring clause the players still point at who won a game cut off until the
    close; without one, a game in play counts by its tricks: each console page says which."""
    made = scoring_event if claims else screen_event
    event = factories.start_rounds(made(owner=organizer))
    change_clock(event=event, action=ClockAction.TIME_UP)
    pages = [
        signed_in.get(reverse(name, args=args)).content.decode()
        for name, args in (
            ("organizer:event", [event.pk]),
            ("organizer:close_round", [event.pk, 1]),
        )
    ]
    for name, page in zip(("console", "close"), pages, strict=True):
        assert ("still point at who won" in page) is claims, name
        assert "tricks taken so far" in page, name
