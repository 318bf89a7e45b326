"""What a report does to its game (tables.writes.recording.record_reports), the rule that
phones and paper share: reports of several games at once, each recorded, confirmed or
disputed as it would be alone."""

from __future__ import annotations

import uuid

import pytest
from django.db import transaction

from tables.models import Game, GameReport, GameStatus, ReportSource
from tables.writes.recording import Outcome, record_reports
from tests import factories
from tests.factories import report, seated_players
from tournament.models import Event

pytestmark = pytest.mark.django_db


@pytest.fixture
def playing(organizer):
    return factories.start_rounds(factories.seated_event(owner=organizer, players=8, tables=2))


def new_report(event, number, winner, source=ReportSource.PAPER):
    return GameReport(
        round=event.current_round,
        table=factories.table(event, 1),
        game_number=number,
        winner=winner,
        finished=True,
        client_key=uuid.uuid4().hex,
        source=source,
    )


def record(event, reports, games=None):
    with transaction.atomic():
        Event.objects.lock(event.pk)
        if games is None:
            games = {
                game.number: game
                for game in Game.objects.filter(round=event.current_round, table__number=1)
            }
        return record_reports(
            round_=event.current_round,
            table=factories.table(event, 1),
            reports=reports,
            games=games,
        )


def test_each_report_of_a_batch_does_what_it_would_do_alone(playing, organizer):
    a, b, c, _d = seated_players(playing, 1)
    report(playing, 1, a, game_number=1)  # unconfirmed, won by a
    report(playing, 1, a, game_number=2)  # confirmed below, won by a
    report(playing, 1, a, game_number=2)
    settled = report(playing, 1, a, game_number=3).game
    Game.objects.filter(pk=settled.pk).update(status=GameStatus.SETTLED, winner=b)

    done = record(
        playing,
        [
            new_report(playing, 1, a),  # confirms
            new_report(playing, 2, a),  # agrees with a confirmed game: no change
            new_report(playing, 3, a),  # the organizer settled it for b
            new_report(playing, 4, c),  # a new game
        ],
    )

    assert [(d.outcome, d.game.number, d.change) for d in done] == [
        (Outcome.CONFIRMED, 1, GameStatus.CONFIRMED),
        (Outcome.CONFIRMED, 2, None),
        (Outcome.DISPUTED, 3, None),
        (Outcome.RECORDED, 4, None),
    ]
    statuses = dict(Game.objects.values_list("number", "status"))
    assert statuses == {
        1: GameStatus.CONFIRMED,
        2: GameStatus.CONFIRMED,
        3: GameStatus.SETTLED,
        4: GameStatus.UNCONFIRMED,
    }
    assert Game.objects.get(number=4).reported_by == str(ReportSource.PAPER.label)
    assert GameReport.objects.filter(source=ReportSource.PAPER, game__isnull=False).count() == 4


def test_another_winner_disputes_an_unconfirmed_game(playing):
    a, b, *_ = seated_players(playing, 1)
    report(playing, 1, a, game_number=1)

    [done] = record(playing, [new_report(playing, 1, b)])

    assert (done.outcome, done.change) == (Outcome.DISPUTED, GameStatus.DISPUTED)
    assert Game.objects.get(number=1).status == GameStatus.DISPUTED


def test_a_game_the_caller_did_not_see_is_judged_not_made_twice(playing):
    """The caller's games miss game 1 (made a moment ago by a write that slipped past the
    lock): the unique constraint turns the report into a second one, and the game of the
    batch that is new is still made."""
    a, *_ = seated_players(playing, 1)
    report(playing, 1, a, game_number=1)

    done = record(playing, [new_report(playing, 1, a), new_report(playing, 2, a)], games={})

    assert [(d.outcome, d.game.number) for d in done] == [
        (Outcome.CONFIRMED, 1),
        (Outcome.RECORDED, 2),
    ]
    assert Game.objects.count() == 2
