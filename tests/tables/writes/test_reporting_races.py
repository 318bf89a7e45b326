"""Reports racing the organizer: each request waits for the other, on both databases.

One side of each race is held open inside its transaction (its work done, not yet
committed) while the other side starts. On SQLite the second one waits for the write
lock; on PostgreSQL for the event's row lock (tournament.models.EventQuerySet.lock).
Either way it then sees what the first one did, as if the two had come one after the
other: a report is in the close or late, never in a closed round uncounted, and a phone
is never told "confirmed" for a game that is disputed.

The scenarios run on a real database in a child process (tests.real_database); they
run on PostgreSQL under `make test-postgres`.
"""

from __future__ import annotations

import threading
import uuid
from unittest import mock

import pytest

from tests.real_database import Side, run_scenarios

# Two real connections on a real database: what can differ on PostgreSQL above all (its
# row locks), though no fixture of theirs opens the test database.
pytestmark = pytest.mark.postgres

# How long the held side stays open once the other side has started: the other side
# must still be waiting then. Long enough for a close to finish when nothing makes it
# wait, short enough to keep the suite quick.
HOLD_SECONDS = 1.0
# A side that has not finished by then never will: the test fails instead of hanging.
GIVE_UP_SECONDS = 30.0


def _event_in_round_one():
    from django.contrib.auth import get_user_model

    from tests import factories

    owner = factories.make_organizer(get_user_model(), f"ada-{uuid.uuid4().hex[:8]}")
    event = factories.start_rounds(factories.seated_event(owner=owner, players=8, tables=2))
    return owner, event


def held_open(target, name: str):
    """Patch ``target.name`` so that the first call does its work, then holds its
    transaction open until released. Returns (patcher, held, release)."""
    real = getattr(target, name)
    held, release = threading.Event(), threading.Event()

    def do_then_hold(*args, **kwargs):
        outcome = real(*args, **kwargs)
        if not held.is_set():
            held.set()
            release.wait(GIVE_UP_SECONDS)
        return outcome

    return mock.patch.object(target, name, do_then_hold), held, release


def race(first: Side, held: threading.Event, second: Side, release: threading.Event) -> bool:
    """Start ``first``, and ``second`` once ``first`` holds its transaction open; release
    ``first`` after HOLD_SECONDS. Returns whether ``second`` was still waiting then."""
    first.start()
    if not held.wait(GIVE_UP_SECONDS):
        raise TimeoutError(first.error or "the first side never reached the hold")
    second.start()
    second.join(HOLD_SECONDS)
    waited = second.is_alive()
    release.set()
    first.finish(GIVE_UP_SECONDS)
    second.finish(GIVE_UP_SECONDS)
    return waited


def report_held_open_while_the_round_closes() -> dict:
    """A phone's report is stored but not committed when the organizer confirms the close."""
    from tables.models import Table
    from tables.writes import reporting
    from tournament.models import Seat
    from tournament.writes.rounds import close_round

    owner, event = _event_in_round_one()
    round_ = event.current_round
    seat = Seat.objects.filter(round=round_, table__number=1).select_related("player").first()
    assert seat is not None
    table = Table.objects.get(pk=seat.table_id)
    patcher, held, release = held_open(reporting, "_attach")
    report = Side(
        lambda: (
            reporting.report_game(
                table=table, round_number=1, client_key=uuid.uuid4().hex, winner=seat.player
            ).outcome
        )
    )
    close = Side(lambda: close_round(round_=round_, by=owner)[seat.player.name].games)
    with patcher:
        waited = race(report, held, close, release)
    return {
        "errors": [side.error for side in (report, close) if side.error],
        "close_waited": waited,
        "report": report.result,
        "games_the_close_counted": close.result,
    }


def close_held_open_while_a_phone_reports() -> dict:
    """The close is written but not committed when a phone reports a game of that round."""
    from tables.models import Game, GameReport, Table
    from tables.writes import reporting
    from tournament.models import Seat
    from tournament.writes import rounds

    owner, event = _event_in_round_one()
    round_ = event.current_round
    seat = Seat.objects.filter(round=round_, table__number=1).select_related("player").first()
    assert seat is not None
    table = Table.objects.get(pk=seat.table_id)
    patcher, held, release = held_open(rounds, "seat_next_round")
    close = Side(lambda: rounds.close_round(round_=round_, by=owner)[seat.player.name].games)
    report = Side(
        lambda: (
            reporting.report_game(
                table=table, round_number=1, client_key=uuid.uuid4().hex, winner=seat.player
            ).outcome
        )
    )
    with patcher:
        waited = race(close, held, report, release)
    return {
        "errors": [side.error for side in (close, report) if side.error],
        "report_waited": waited,
        "report": report.result,
        "games_the_close_counted": close.result,
        "games_in_the_closed_round": Game.objects.filter(round=round_).count(),
        "report_states": list(GameReport.objects.filter(round=round_).values_list("state")),
    }


def dispute_held_open_while_another_phone_confirms() -> dict:
    """Game 1 was reported; one phone disagrees and, before that commits, another agrees."""
    from tables.models import Game, Table
    from tables.writes import reporting
    from tournament.models import Seat

    _owner, event = _event_in_round_one()
    round_ = event.current_round
    seats = list(
        Seat.objects.filter(round=round_, table__number=1)
        .select_related("player")
        .order_by("player__name")
    )
    table = Table.objects.get(pk=seats[0].table_id)
    first, other = seats[0].player, seats[1].player

    def report(winner):
        return reporting.report_game(
            table=table,
            round_number=1,
            client_key=uuid.uuid4().hex,
            winner=winner,
            game_number=1,
        ).outcome

    report(first)
    patcher, held, release = held_open(reporting, "_attach")
    dispute = Side(lambda: report(other))
    confirm = Side(lambda: report(first))
    with patcher:
        waited = race(dispute, held, confirm, release)
    return {
        "errors": [side.error for side in (dispute, confirm) if side.error],
        "confirmation_waited": waited,
        "dispute": dispute.result,
        "confirmation": confirm.result,
        "game": Game.objects.get(round=round_, table=table, number=1).status,
    }


SCENARIOS = (
    report_held_open_while_the_round_closes,
    close_held_open_while_a_phone_reports,
    dispute_held_open_while_another_phone_confirms,
)


@pytest.fixture(scope="module")
def raced(tmp_path_factory) -> dict:
    return run_scenarios(*SCENARIOS, workdir=tmp_path_factory.mktemp("races"))


def test_a_report_committing_while_the_round_closes_is_counted_in_the_close(raced):
    outcome = raced["report_held_open_while_the_round_closes"]
    assert outcome["errors"] == []
    assert outcome["close_waited"], outcome
    assert outcome["report"] == "recorded"
    assert outcome["games_the_close_counted"] == 1


def test_a_report_arriving_while_the_round_closes_is_late_not_lost(raced):
    outcome = raced["close_held_open_while_a_phone_reports"]
    assert outcome["errors"] == []
    assert outcome["report_waited"], outcome
    assert outcome["report"] == "late"
    assert outcome["games_the_close_counted"] == 0
    assert outcome["games_in_the_closed_round"] == 0
    assert outcome["report_states"] == [["late"]]


def test_a_confirmation_racing_a_dispute_is_never_told_confirmed(raced):
    outcome = raced["dispute_held_open_while_another_phone_confirms"]
    assert outcome["errors"] == []
    assert outcome["confirmation_waited"], outcome
    assert (outcome["dispute"], outcome["confirmation"]) == ("disputed", "disputed")
    assert outcome["game"] == "disputed"
