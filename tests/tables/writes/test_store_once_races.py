"""Two requests with one client key at once (tables.writes.store_once, Terms: race), on a
real database with two connections (tests.real_database), as two server threads would.

The first side has stored its row and holds its transaction open while the second
starts. Either way the second waits (on PostgreSQL for the key's unique index or the
table's lock, on SQLite for the write lock), then answers with the first one's row:
one row stored, and no request refused or failed.
"""

from __future__ import annotations

import threading

import pytest

from tests.real_database import Side, run_scenarios
from tests.tables.writes.test_reporting_races import GIVE_UP_SECONDS, held_open, race

pytestmark = pytest.mark.postgres


def _seated():
    """(deal, a player of it) at a screen table in round 1, on the real database."""
    import uuid

    from django.contrib.auth import get_user_model

    from tests import factories
    from tests.screen_factories import deal_at, screen_event
    from tournament.models import Player

    owner = factories.make_organizer(get_user_model(), f"ada-{uuid.uuid4().hex[:8]}")
    event = factories.start_rounds(screen_event(owner=owner, players=4, tables=1))
    deal = deal_at(event, 1)
    return deal, Player.objects.get(pk=deal.seats[0])


def same_key_inserted_twice_at_once() -> dict:
    """The helper alone: both sides insert a gesture with one key."""
    from tables.models import Gesture
    from tables.writes.store_once import ClientKey, store_once
    from tournament.common.errors import Refused

    deal, player = _seated()
    key = ClientKey(
        find=lambda: Gesture.objects.filter(client_key="raced-key").first(),
        mine=lambda found: found.player_id == player.pk,
        same=lambda found: found.kind == "yes",
        foreign=lambda: Refused("foreign"),
        reused=lambda: Refused("reused"),
    )
    held, release = threading.Event(), threading.Event()

    def send(hold: bool):
        def store():
            row = Gesture.objects.create(
                round_id=deal.round_id,
                table_id=deal.table_id,
                player=player,
                kind="yes",
                client_key="raced-key",
            )
            if hold:
                held.set()
                release.wait(GIVE_UP_SECONDS)
            return ["stored", row.pk]

        return lambda: store_once(key=key, store=store, repeated=lambda f: ["repeated", f.pk])

    first, second = Side(send(hold=True)), Side(send(hold=False))
    waited = race(first, held, second, release)
    return {
        "errors": [side.error for side in (first, second) if side.error],
        "second_waited": waited,
        "first": first.result,
        "second": second.result,
        "rows": Gesture.objects.filter(client_key="raced-key").count(),
    }


def same_gesture_sent_twice_at_once() -> dict:
    """A real write: one gesture sent twice with one key (a lost answer sent again while
    the first request was still under way)."""
    from tables.models import Gesture
    from tables.writes import silent_channel
    from tests.screen_factories import device_of

    deal, player = _seated()

    def send():
        return silent_channel.make_gesture(
            player=player,
            kind="wait",
            client_key="gesture-key",
            device=device_of(player),
            pad=(deal.round_id, deal.table_id),
        ).repeated

    first, second = Side(send), Side(send)
    patcher, held, release = held_open(silent_channel, "touch_seat")
    with patcher:
        waited = race(first, held, second, release)
    return {
        "errors": [side.error for side in (first, second) if side.error],
        "second_waited": waited,
        "repeated": [first.result, second.result],
        "rows": Gesture.objects.filter(client_key="gesture-key").count(),
    }


SCENARIOS = (same_key_inserted_twice_at_once, same_gesture_sent_twice_at_once)


@pytest.fixture(scope="module")
def raced(tmp_path_factory) -> dict:
    return run_scenarios(*SCENARIOS, workdir=tmp_path_factory.mktemp("store-once-races"))


def test_a_key_inserted_by_two_requests_at_once_is_stored_once(raced):
    outcome = raced["same_key_inserted_twice_at_once"]
    assert outcome["errors"] == []
    assert outcome["second_waited"], outcome
    assert outcome["first"][0] == "stored"
    assert outcome["second"] == ["repeated", outcome["first"][1]]
    assert outcome["rows"] == 1


def test_a_gesture_sent_twice_at_once_is_stored_once_and_both_answered_done(raced):
    outcome = raced["same_gesture_sent_twice_at_once"]
    assert outcome["errors"] == []
    assert outcome["second_waited"], outcome
    assert outcome["repeated"] == [False, True]
    assert outcome["rows"] == 1
