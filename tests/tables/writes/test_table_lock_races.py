"""A table's play locks its table, not the event (tables.writes.table_lock), raced on a
real database with two connections (tests.real_database), as two server threads would.

One side is held open inside its transaction (its write done, not committed) while the
other starts. On PostgreSQL a card at another table goes on beside it; on SQLite, one
writer by design, it waits its turn. Either way, a round's close that meets a card counts
it (the card committed first) or refuses it with its reason (the close committed first).
"""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest

from tests.real_database import Side, run_scenarios
from tests.tables.writes.test_reporting_races import held_open, race

pytestmark = pytest.mark.postgres
HOUR = timedelta(hours=1)


def _screen_event_in_round_one():
    from django.contrib.auth import get_user_model

    from tests import factories
    from tests.screen_factories import screen_event

    owner = factories.make_organizer(get_user_model(), f"ada-{uuid.uuid4().hex[:8]}")
    return owner, factories.start_rounds(screen_event(owner=owner, players=8, tables=2))


def _play_at(event, table_number: int):
    """A call that plays the card of whoever's turn it is at the table, from their screen:
    returns "stored", or the reason it was refused."""
    from tables.models import ScreenSeat
    from tables.writes.screen_play import game_of, play_card
    from tests.screen_factories import deal_at, device_of
    from tournament.common.errors import Refused
    from tournament.models import Player

    deal = deal_at(event, table_number)
    game = game_of(deal)
    assert game.trick is not None
    assert game.trick.to_play is not None
    player = Player.objects.get(pk=game.trick.to_play)
    ScreenSeat.objects.update_or_create(
        player=player, defaults={"device": device_of(player), "seen_at": deal.dealt_at}
    )
    card = game.hands[player.pk][0]

    def play() -> str:
        try:
            play_card(
                player=player, card=card, client_key=uuid.uuid4().hex, device=device_of(player)
            )
        except Refused as refusal:
            return str(refusal.message)
        return "stored"

    return play


def card_held_at_one_table_while_another_plays() -> dict:
    from django.db import connection

    from tables.writes import screen_play

    _owner, event = _screen_event_in_round_one()
    first, second = Side(_play_at(event, 1)), Side(_play_at(event, 2))
    patcher, held, release = held_open(screen_play, "touch_seat")
    with patcher:
        waited = race(first, held, second, release)
    return {
        "vendor": connection.vendor,
        "errors": [side.error for side in (first, second) if side.error],
        "second_waited": waited,
        "results": [first.result, second.result],
    }


def card_held_open_while_the_round_closes() -> dict:
    from tables.models import Play
    from tables.writes import screen_play
    from tournament.writes.rounds import close_round

    owner, event = _screen_event_in_round_one()
    round_ = event.current_round
    card = Side(_play_at(event, 1))
    close = Side(lambda: bool(close_round(round_=round_, by=owner)))
    patcher, held, release = held_open(screen_play, "touch_seat")
    with patcher:
        waited = race(card, held, close, release)
    return {
        "errors": [side.error for side in (card, close) if side.error],
        "close_waited": waited,
        "card": card.result,
        "plays_in_the_closed_round": Play.objects.filter(deal__round=round_).count(),
        "deals_left_in_play": round_.deals.filter(ended_at__isnull=True).count(),
    }


def close_held_open_while_a_card_is_played() -> dict:
    from tables.models import Play
    from tournament.writes import rounds

    owner, event = _screen_event_in_round_one()
    round_ = event.current_round
    close = Side(lambda: bool(rounds.close_round(round_=round_, by=owner)))
    card = Side(_play_at(event, 1))
    patcher, held, release = held_open(rounds, "seat_next_round")
    with patcher:
        waited = race(close, held, card, release)
    return {
        "errors": [side.error for side in (close, card) if side.error],
        "card_waited": waited,
        "card": card.result,
        "plays_in_the_closed_round": Play.objects.filter(deal__round=round_).count(),
    }


def card_held_open_while_the_screens_are_noted_as_there() -> dict:
    """Presence (the live channel's heartbeat, a screen's fetch) while a card is held."""
    from django.db import connection
    from django.utils import timezone

    from tables.models import ScreenSeat, ScreenSighting
    from tables.writes import screen_play, screen_seats
    from tournament.models import Player

    _owner, event = _screen_event_in_round_one()
    players = list(Player.objects.filter(event=event).values_list("pk", flat=True))
    card = Side(_play_at(event, 1))
    # Every seat last seen long ago, the card's player's too: the card updates its row.
    ScreenSeat.objects.filter(player__event=event).update(seen_at=timezone.now() - HOUR)
    presence = Side(lambda: screen_seats.note_seen(player_ids=players))
    patcher, held, release = held_open(screen_play, "touch_seat")
    with patcher:
        waited = race(card, held, presence, release)
    return {
        "vendor": connection.vendor,
        "errors": [side.error for side in (card, presence) if side.error],
        "presence_waited": waited,
        "card": card.result,
        "sighted": ScreenSighting.objects.filter(player__event=event).count(),
        "seats_seen_now": ScreenSeat.objects.filter(
            player__event=event, seen_at__gt=timezone.now() - HOUR
        ).count(),
        "players": len(players),
    }


SCENARIOS = (
    card_held_open_while_the_screens_are_noted_as_there,
    card_held_at_one_table_while_another_plays,
    card_held_open_while_the_round_closes,
    close_held_open_while_a_card_is_played,
)


@pytest.fixture(scope="module")
def raced(tmp_path_factory) -> dict:
    return run_scenarios(*SCENARIOS, workdir=tmp_path_factory.mktemp("table-races"))


def test_a_card_at_one_table_does_not_wait_for_a_card_at_another_on_postgresql(raced):
    outcome = raced["card_held_at_one_table_while_another_plays"]
    assert outcome["errors"] == []
    assert outcome["results"] == ["stored", "stored"]
    # SQLite has one writer: there the second table waits its turn, as it always did.
    assert outcome["second_waited"] == (outcome["vendor"] == "sqlite"), outcome


def test_a_card_committing_as_the_round_closes_is_in_the_close(raced):
    outcome = raced["card_held_open_while_the_round_closes"]
    assert outcome["errors"] == []
    assert outcome["close_waited"], outcome
    assert outcome["card"] == "stored"
    assert outcome["plays_in_the_closed_round"] == 1
    assert outcome["deals_left_in_play"] == 0


def test_a_card_played_as_the_round_closes_is_refused_with_its_reason(raced):
    outcome = raced["close_held_open_while_a_card_is_played"]
    assert outcome["errors"] == []
    assert outcome["card_waited"], outcome
    assert outcome["card"] != "stored"
    assert outcome["card"]  # a reason, said
    assert outcome["plays_in_the_closed_round"] == 0


def test_noting_who_is_there_never_waits_for_a_card_on_postgresql(raced):
    outcome = raced["card_held_open_while_the_screens_are_noted_as_there"]
    assert outcome["errors"] == []
    assert outcome["card"] == "stored"
    assert outcome["sighted"] == outcome["players"]
    assert outcome["seats_seen_now"] == 1  # the card's player's, seen by the card itself
    # SQLite has one writer: there presence waits its turn, as every write does.
    assert outcome["presence_waited"] == (outcome["vendor"] == "sqlite"), outcome
