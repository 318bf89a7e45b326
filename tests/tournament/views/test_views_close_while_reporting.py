"""Closing a round while the room's last reports arrive at 4 a second, as at time-up.

Terms:
    reporter   a thread with its own database connection that stores a phone's report
               every REPORT_INTERVAL seconds through tables.writes.reporting.report_game,
               as the phone endpoint does; a test can slip in a report that changes a move.
    looking    the organizer checks the moves: the test waits until the reporter has
               stored LOOKING_REPORTS more reports after the page loaded.

The organizer's confirmation closes the round at the first attempt when no shown move
changed; when one did, the page shows the new moves marked and the second confirmation
closes it. Reports after the close are kept as late, and stand in nobody's way.
"""

from __future__ import annotations

import queue
import threading
import time
import uuid

import pytest
from django.db import connection

from tables.models import GameReport, ReportState, Table
from tables.writes.reporting import report_game
from tests import factories
from tests.tournament.views.test_views_close_reconfirm import form_values, marked_lines, url
from tournament.models import Player, Round, RoundStatus

# Two threads with their own connections: the reports must be committed to be seen.
pytestmark = pytest.mark.django_db(transaction=True)

REPORT_INTERVAL = 0.25  # 4 reports a second
LOOKING_REPORTS = 6  # 1.5 s of checking the moves while reports arrive
GIVE_UP_SECONDS = 30.0  # a reporter that has not got this far by then never will


class Reporter(threading.Thread):
    """Reports a game every REPORT_INTERVAL: each won by a leader of ``tables`` (which
    changes nobody's move), or the next report put in ``slipped`` first."""

    def __init__(self, event, leaders: list[tuple[int, str]]) -> None:
        super().__init__(daemon=True)
        self.plan = [
            (factories.table(event, number), _player(event, name)) for number, name in leaders
        ]
        self.round_number = event.round_number
        self.slipped: queue.Queue[tuple[Table, Player]] = queue.Queue()
        self.outcomes: list[str] = []
        self.stopping = threading.Event()
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            turn = 0
            while not self.stopping.is_set():
                try:
                    table, winner = self.slipped.get_nowait()
                except queue.Empty:
                    table, winner = self.plan[turn % len(self.plan)]
                    turn += 1
                result = report_game(
                    table=table,
                    round_number=self.round_number,
                    client_key=uuid.uuid4().hex,
                    winner=winner,
                )
                self.outcomes.append(result.outcome)
                self.stopping.wait(REPORT_INTERVAL)
        except BaseException as error:  # handed to the test, which fails with it
            self.error = error
        finally:
            connection.close()

    def wait_for(self, count: int) -> None:
        """Wait until ``count`` more reports are stored than now."""
        target = len(self.outcomes) + count
        deadline = time.monotonic() + GIVE_UP_SECONDS
        while len(self.outcomes) < target:
            assert self.error is None, self.error
            assert time.monotonic() < deadline, "the reporter stopped reporting"
            time.sleep(0.02)

    def stop(self) -> None:
        self.stopping.set()
        self.join(GIVE_UP_SECONDS)
        assert self.error is None, self.error


def _player(event, name: str) -> Player:
    return Player.objects.get(event=event, name=name)


@pytest.fixture
def playing(organizer):
    return factories.start_rounds(factories.seated_event(owner=organizer, players=12, tables=3))


@pytest.fixture
def reporter(playing):
    # The first by the alphabet leads tables 1 and 3 (nobody has a game yet): their wins
    # change nobody's move. Table 2 is left to what the tests slip in.
    started = Reporter(
        playing, [(number, factories.seated_names(playing, number)[0]) for number in (1, 3)]
    )
    started.start()
    yield started
    started.stop()


def test_the_first_confirmation_closes_while_reports_arrive(signed_in, playing, reporter):
    reporter.wait_for(2)
    page = signed_in.get(url("close_round", playing.pk, 1)).content.decode()
    counted_before = len(reporter.outcomes)
    reporter.wait_for(LOOKING_REPORTS)

    response = signed_in.post(url("close_round", playing.pk, 1), form_values(page))

    assert response.status_code == 302, "refused: " + response.content.decode()
    assert response["Location"] == url("event", playing.pk) + "#tables"
    closed = Round.objects.get(event=playing, number=1)
    assert closed.status == RoundStatus.CLOSED
    reporter.wait_for(4)  # the first may have been on its way during the close
    reporter.stop()
    # Reports while the organizer looked counted; the ones after the close are kept late.
    counted = GameReport.objects.filter(round=closed, state=ReportState.COUNTED).count()
    assert counted >= counted_before + LOOKING_REPORTS
    assert GameReport.objects.filter(round=closed, state=ReportState.LATE).count() >= 3
    assert reporter.outcomes[-3:] == ["late"] * 3
    seats = factories.seats_of(playing, 2)
    leaders = [factories.seated_names(playing, number, round_number=1)[0] for number in (1, 3)]
    assert [seats[name] for name in leaders] == [2, 3]  # up from 1; top table: stays at 3


def test_a_changed_move_asks_once_more_and_the_second_confirmation_closes(
    signed_in, playing, reporter
):
    page = signed_in.get(url("close_round", playing.pk, 1)).content.decode()
    names = factories.seated_names(playing, 2)
    reporter.slipped.put((factories.table(playing, 2), _player(playing, names[-1])))
    reporter.slipped.put((factories.table(playing, 2), _player(playing, names[-1])))
    reporter.wait_for(LOOKING_REPORTS)  # names[-1] now has 2 games: up, not down

    refused = signed_in.post(url("close_round", playing.pk, 1), form_values(page))

    again = refused.content.decode()
    assert "Some moves changed while you were looking" in again
    assert marked_lines(again)[names[-1]] == "Changed (before: down to table 1)"
    assert Round.objects.get(event=playing, number=1).status == RoundStatus.OPEN
    reporter.wait_for(LOOKING_REPORTS)  # more reports: for the leaders, changing no move

    response = signed_in.post(url("close_round", playing.pk, 1), form_values(again))

    assert response["Location"] == url("event", playing.pk) + "#tables"
    assert Round.objects.get(event=playing, number=1).status == RoundStatus.CLOSED
    assert factories.seats_of(playing, 2)[names[-1]] == 3
