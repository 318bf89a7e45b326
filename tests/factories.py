"""Small factories: build just the state a test needs, through the real functions."""

from __future__ import annotations

import itertools
import uuid

from tables.models import Table
from tables.reporting import ReportResult, report_game
from tournament.models import Event, Phase, Player
from tournament.rounds import advance_phase
from tournament.seating import seat_players

_counter = itertools.count(1)


def make_user(user_model, username: str | None = None, *, superuser: bool = False):
    username = username or f"organizer{next(_counter)}"
    return user_model.objects.create_user(
        username=username, password="correct horse battery", is_superuser=superuser
    )


def make_event(*, owner, name: str = "Friday workshop", **fields) -> Event:
    fields.setdefault("seed", 7)
    fields.setdefault("rounds_planned", 3)
    return Event.objects.create(owner=owner, name=name, **fields)


def names(count: int) -> list[str]:
    return [f"Player {i:03d}" for i in range(1, count + 1)]


def add_players(event: Event, player_names: list[str]) -> list[Player]:
    return Player.objects.bulk_create(Player(event=event, name=name) for name in player_names)


def seated_event(*, owner, players: int | list[str], tables: int, **fields) -> Event:
    event = make_event(owner=owner, **fields)
    add_players(event, names(players) if isinstance(players, int) else players)
    seat_players(event=event, table_count=tables)
    event.refresh_from_db()
    return event


def start_rounds(event: Event) -> Event:
    """From setup (seated) through study and practice into round 1."""
    while event.phase != Phase.ROUND:
        event = advance_phase(event=event)
    return event


def table(event: Event, number: int) -> Table:
    return Table.objects.get(event=event, number=number)


def report(
    event: Event, table_number: int, winner: str | Player, *, key: str | None = None, **kwargs
) -> ReportResult:
    event.refresh_from_db()
    if isinstance(winner, str):
        winner = Player.objects.get(event=event, name=winner)
    return report_game(
        table=table(event, table_number),
        round_number=kwargs.pop("round_number", event.round_number),
        client_key=key or uuid.uuid4().hex,
        winner=winner,
        **kwargs,
    )
