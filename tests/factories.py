"""Small factories: build just the state a test needs, through the real functions."""

from __future__ import annotations

import itertools
import uuid

from tables.models import Table
from tables.writes.reporting import ReportResult, report_game
from tournament.models import Event, Phase, Player, Round
from tournament.writes.rounds import advance_phase
from tournament.writes.seating import seat_players

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


def current_round(event: Event) -> Round:
    """The round being played, which the tests ask for only while there is one."""
    round_ = event.current_round
    assert round_ is not None, event.phase
    return round_


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


def play_until(event: Event, phase: str, *, by=None) -> Event:
    """Drive a seated event forward through the real bridges until it reaches ``phase``.

    Rounds are closed as they come (with whatever games were reported), so "between"
    stops after round 1 closes and "debrief" plays every planned round out.
    """
    from tournament.writes.rounds import close_round

    event.refresh_from_db()
    while event.phase != phase:
        if event.phase == Phase.ROUND:
            close_round(round_=current_round(event), by=by)
            event.refresh_from_db()
        else:
            event = advance_phase(event=event)
    return event


def seated_players(
    event: Event, table_number: int, round_number: int | None = None
) -> list[Player]:
    """Players at a table in a round (the current one by default), alphabetically."""
    from tournament.models import Seat

    event.refresh_from_db()
    return [
        seat.player
        for seat in Seat.objects.filter(
            round__event=event,
            round__number=round_number or max(event.round_number, 1),
            table__number=table_number,
        )
        .select_related("player")
        .order_by("player__name")
    ]


def seated_names(event: Event, table_number: int, round_number: int | None = None) -> list[str]:
    """Names at a table in a round (the current one by default), alphabetically."""
    from tournament.models import Seat

    return list(
        Seat.objects.filter(
            round__event=event,
            round__number=round_number or event.round_number or 1,
            table__number=table_number,
        )
        .order_by("player__name")
        .values_list("player__name", flat=True)
    )


# --- organizer console helpers ------------------------------------------------------------


def seats_of(event: Event, round_number: int) -> dict[str, int]:
    """{player name: table number} for one round of an event."""
    from tournament.models import Seat

    return dict(
        Seat.objects.filter(round__event=event, round__number=round_number).values_list(
            "player__name", "table__number"
        )
    )


def play_games(event: Event, winners_by_table: dict[int, list[str]]) -> None:
    """Report one game per listed winner at each table of the current round, as a phone."""
    for table_number, winners in winners_by_table.items():
        for winner in winners:
            report(event, table_number, winner)


def close_current_round(event: Event, by) -> Event:
    from tournament.writes.rounds import close_round

    event.refresh_from_db()
    close_round(round_=current_round(event), by=by)
    event.refresh_from_db()
    return event


def make_organizer(user_model, username: str | None = None, *, superuser: bool = False):
    """A user without a password: quick to make (no hashing), signed in with force_login."""
    user = user_model(username=username or f"organizer{next(_counter)}", is_superuser=superuser)
    user.set_unusable_password()
    user.save()
    return user
