"""A key is one action, over HTTP as a player's browser sends it: the same key with the
same card, pointing, stroke, gesture or report is a retry, answered as stored once; the
same key with another one is refused (409, with the reason) and changes nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tables.models import GameReport, Gesture, Play, Pointing, Stroke
from tables.writes.screen_play import game_of
from tests import factories
from tests.factories import seated_players
from tests.screen_factories import deal_at, play_trick, screen_event
from tournament.models import Player

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}
REUSED = "This key was already used for another move: nothing was changed."


@pytest.fixture
def playing(organizer):
    return factories.start_rounds(screen_event(owner=organizer))


@pytest.fixture
def first(client, playing):
    """The player who leads the first trick, on this browser (its cookie)."""
    player = Player.objects.get(pk=game_of(deal_at(playing, 1)).trick.to_play)
    client.get(_url("screen", player), follow=True)
    return player


def _url(name, player):
    return reverse(f"phone:{name}", args=[player.token])


def _post(client, name, player, data):
    return client.post(_url(name, player), data, headers=HTMX)


def _stored(answer) -> None:
    assert answer.status_code == 200
    assert answer["X-Action-Stored"] == "1"


def _refused(answer) -> None:
    assert answer.status_code == 409
    assert answer["X-Action-Refused"] == "1"
    assert "X-Action-Stored" not in answer
    assert REUSED in answer.content.decode()


def test_a_key_played_again_with_another_card_is_refused_and_changes_nothing(
    client, playing, first
):
    deal = deal_at(playing, 1)
    four, ace = deal.hands_by_player[first.pk][:2]
    _stored(_post(client, "screen_play", first, {"card": four, "key": "one-key-play"}))

    _refused(_post(client, "screen_play", first, {"card": ace, "key": "one-key-play"}))

    assert list(Play.objects.values_list("card", flat=True)) == [four]
    assert ace in game_of(deal).hands[first.pk]


def test_a_play_retried_as_it_was_is_stored_once(client, playing, first):
    deal = deal_at(playing, 1)
    data = {"card": deal.hands_by_player[first.pk][0], "key": "one-key-retry", "trick": 1}
    data["deal"] = deal.pk
    _stored(_post(client, "screen_play", first, data))
    _stored(_post(client, "screen_play", first, data))
    assert Play.objects.count() == 1


def test_a_key_played_again_for_another_trick_is_refused(client, playing, first):
    deal = deal_at(playing, 1)
    data = {"card": deal.hands_by_player[first.pk][0], "key": "one-key-trick", "trick": 1}
    _stored(_post(client, "screen_play", first, data))
    _refused(_post(client, "screen_play", first, {**data, "trick": 2}))


def test_a_key_pointed_again_at_another_card_is_refused(client, playing, first):
    deal = deal_at(playing, 1)
    mine = deal.hands_by_player[first.pk][0]
    _stored(_post(client, "screen_play", first, {"card": mine, "key": "one-key-lead"}))
    _deal, cards = play_trick(playing, 1)  # everyone else follows
    other = next(card for card in cards.values())
    point = {"card": mine, "key": "one-key-point", "trick": 1, "deal": deal.pk}
    _stored(_post(client, "screen_point", first, point))

    _refused(_post(client, "screen_point", first, {**point, "card": other}))
    _stored(_post(client, "screen_point", first, point))  # the retry
    assert list(Pointing.objects.values_list("card", flat=True)) == [mine]


def test_a_key_drawn_again_with_other_points_or_ink_is_refused(client, first):
    stroke = {"key": "one-key-stroke", "kind": "red", "points": "1,1 20,30"}
    _stored(_post(client, "screen_draw", first, stroke))

    _refused(_post(client, "screen_draw", first, {**stroke, "points": "1,1 600,600"}))
    _refused(_post(client, "screen_draw", first, {**stroke, "kind": "blue"}))
    _refused(_post(client, "screen_draw", first, {**stroke, "kind": "clear", "points": ""}))
    _stored(_post(client, "screen_draw", first, stroke))  # the retry
    assert list(Stroke.objects.values_list("kind", "points")) == [("red", [[1, 1], [20, 30]])]


def test_a_key_gestured_again_with_another_gesture_is_refused(client, first):
    gesture = {"key": "one-key-gesture", "gesture": "yes"}
    _stored(_post(client, "screen_gesture", first, gesture))

    _refused(_post(client, "screen_gesture", first, {**gesture, "gesture": "no"}))
    _stored(_post(client, "screen_gesture", first, gesture))  # the retry
    assert list(Gesture.objects.values_list("kind", flat=True)) == ["yes"]


def test_a_stroke_retried_from_the_pad_it_was_drawn_on_is_stored_once(client, playing, first):
    deal = deal_at(playing, 1)
    stroke = {"key": "one-key-pad", "kind": "red", "points": "5,5", "pad": f"{deal.round_id}-"}
    stroke["pad"] += str(deal.table_id)
    _stored(_post(client, "screen_draw", first, stroke))
    _stored(_post(client, "screen_draw", first, stroke))
    assert Stroke.objects.count() == 1


# --- a phone's report at a table ------------------------------------------------------------


@pytest.fixture
def reporting(organizer):
    """Eight players at two tables with their cards on the tables, round 1 open."""
    return factories.start_rounds(factories.seated_event(owner=organizer, players=8, tables=2))


def _report(client, event, winner, key, game=1):
    table = winner.seats.get(round__number=1).table
    data = {"round_number": 1, "game_number": game, "client_key": key, "winner": winner.pk}
    data["retap_checked"] = "on"
    return client.post(reverse("phone:report", args=[table.token]), data, headers=HTMX)


def test_a_report_key_sent_again_with_another_winner_is_refused(client, reporting):
    alice, bob = seated_players(reporting, 1)[:2]
    first = _report(client, reporting, alice, "one-report-key")
    assert first["X-Report-Stored"] == "one-report-key"

    answer = _report(client, reporting, bob, "one-report-key")

    assert answer.status_code == 409
    assert answer["X-Report-Refused"] == "1"
    assert "X-Report-Stored" not in answer
    assert "This key was already used for another report" in answer.content.decode()
    assert list(GameReport.objects.values_list("winner", flat=True)) == [alice.pk]
    retried = _report(client, reporting, alice, "one-report-key")  # the outbox's retry
    assert retried.status_code == 200
    assert retried["X-Report-Stored"] == "one-report-key"
    assert GameReport.objects.count() == 1
