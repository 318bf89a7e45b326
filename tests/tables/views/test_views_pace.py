"""Nobody floods a table: each player's gestures, strokes and clears keep to a person's
pace, counted by the server for the player, through the page as a screen sends them (the
Django test client with the device cookie and the htmx header). The clock is the
server's, moved by the test (``clock``): no test waits."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from tables.models import Gesture, Stroke
from tables.rules import silent_channel as rules
from tests import factories
from tests.screen_factories import deal_at, screen_event
from tournament.models import Player

pytestmark = pytest.mark.django_db
SENT = {"HX-Request": "true", "X-Screen-Pushed": "1"}  # as static/js/screen.js sends


class Clock:
    def __init__(self) -> None:
        self.at = timezone.now()

    def __call__(self):
        return self.at

    def tick(self, seconds: float) -> None:
        self.at += timedelta(seconds=seconds)


@pytest.fixture
def clock(monkeypatch):
    clock = Clock()
    monkeypatch.setattr("tables.writes.silent_channel.timezone.now", clock)
    return clock


@pytest.fixture
def me(client, organizer):
    playing = factories.start_rounds(screen_event(owner=organizer))
    player = Player.objects.get(pk=deal_at(playing, 1).seats[0])
    client.get(reverse("phone:screen", args=[player.token]))  # the device cookie
    return player


class Sender:
    def __init__(self, client, player) -> None:
        self.client, self.player, self.count = client, player, 0

    def post(self, name: str, data: dict):
        self.count += 1
        url = reverse(f"phone:screen_{name}", args=[self.player.token])
        return self.client.post(url, {"key": f"pacekey{self.count:06d}", **data}, headers=SENT)

    def gesture(self, kind: str = "yes"):
        return self.post("gesture", {"gesture": kind})

    def stroke(self, kind: str = "black"):
        return self.post("draw", {"kind": kind, "points": "" if kind == "clear" else "1,1 9,9"})


@pytest.fixture
def send(client, me):
    return Sender(client, me)


def test_a_person_gesturing_for_two_minutes_is_never_refused(clock, send):
    # Bursts of corrections (three taps half a second apart) between calmer moments.
    for _round in range(24):
        for _tap in range(3):
            assert send.gesture().status_code == 204
            clock.tick(0.5)
        clock.tick(4)
    assert Gesture.objects.count() == 72


def test_a_person_writing_and_clearing_is_never_refused(clock, send):
    # A word written fast (8 strokes, 0.25 s apart), a look, a clear, again, for minutes;
    # a mistaken clear is undone by clearing again at once.
    for _word in range(20):
        for _stroke in range(8):
            assert send.stroke().status_code == 204
            clock.tick(0.25)
        clock.tick(2)
        assert send.stroke("clear").status_code == 204
        clock.tick(0.3)
        assert send.stroke("clear").status_code == 204
        clock.tick(3)
    assert Stroke.objects.count() == 200


def test_a_flood_of_gestures_is_refused_past_the_burst_then_one_a_second(clock, send):
    answers = [send.gesture() for _ in range(50)]  # all within one instant
    stored = [a for a in answers if a.status_code == 204]
    refused = [a for a in answers if a.status_code == 429]
    assert len(stored) == rules.PACES["gestures"].burst == Gesture.objects.count()
    assert len(refused) == 45
    assert all(a["X-Action-Refused"] == "1" for a in refused)
    assert "Too fast" in refused[0].content.decode()
    clock.tick(1)
    assert send.gesture().status_code == 204
    assert send.gesture().status_code == 429
    # Half a minute of flooding at 5 a second stores about one a second: in any
    # PACE_HORIZON_SECONDS, a burst and one a second at most.
    before = Gesture.objects.count()
    pace, horizon = rules.PACES["gestures"], rules.PACE_HORIZON_SECONDS
    for _ in range(horizon * 5):
        clock.tick(0.2)
        send.gesture()
    assert horizon - 1 <= Gesture.objects.count() - before <= pace.burst + horizon


def test_a_flood_of_strokes_and_of_clears_is_refused_each_at_its_pace(clock, send):
    strokes = [send.stroke().status_code for _ in range(40)]
    assert strokes.count(204) == rules.PACES["strokes"].burst
    clears = [send.stroke("clear").status_code for _ in range(10)]
    assert clears.count(204) == rules.PACES[rules.CLEARS].burst  # clears count on their own
    assert clears.count(429) == 7
    clock.tick(4)
    assert send.stroke("clear").status_code == 204
    assert send.stroke("clear").status_code == 429


def test_a_stroke_stored_then_sent_again_is_never_counted_against_the_pace(clock, send):
    first = send.stroke()
    for _ in range(30):
        send.stroke()
    url = reverse("phone:screen_draw", args=[send.player.token])
    again = send.client.post(
        url, {"key": "pacekey000001", "kind": "black", "points": "1,1 9,9"}, headers=SENT
    )
    assert first.status_code == again.status_code == 204
    assert again["X-Action-Stored"] == "1"


def test_the_pace_is_the_players_whatever_browser_sends(clock, client, me, send):
    for _ in range(rules.PACES["gestures"].burst):
        assert send.gesture().status_code == 204
    # The player's seat moves to another browser (freed, then taken there): the pace
    # stays the player's.
    client.post(reverse("phone:screen_free", args=[me.token]))
    client.cookies.clear()
    client.get(reverse("phone:screen", args=[me.token]))
    client.post(reverse("phone:screen_take", args=[me.token]))
    answer = send.gesture()
    assert answer.status_code == 429, answer.content.decode()[:300]


def test_the_pace_keeps_to_its_bucket():
    pace = rules.Pace(burst=3, per_second=1.0)
    assert rules.within_pace(pace, [], 100.0)
    assert rules.within_pace(pace, [100.0, 100.0], 100.0)
    assert not rules.within_pace(pace, [100.0, 100.0, 100.0], 100.0)
    assert rules.within_pace(pace, [100.0, 100.0, 100.0], 101.0)
    steady = [100.0 + second for second in range(29)]
    # One a second for half a minute leaves the bucket full again a second later.
    assert rules.within_pace(pace, [*steady, 129.0, 129.0], 129.0)
    assert not rules.within_pace(pace, [*steady, 129.0, 129.0, 129.0], 129.0)
