"""The organizer's corrections: late reports accepted (counted once) or dropped, each
handled once and written to the corrections log."""

from __future__ import annotations

import pytest

from tables.models import CorrectionAction, Game, GameCorrection, GameStatus, ReportState
from tables.writes.corrections import (
    accept_late_report,
    add_game,
    delete_game,
    drop_late_report,
    settle_game,
)
from tests import factories
from tests.factories import report, seated_players
from tournament.common.errors import Refused
from tournament.writes.rounds import close_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def closed(organizer):
    """Eight players at two tables, round 1 closed, with game 1 at table 1 won by the first
    seated player."""
    playing = factories.start_rounds(factories.seated_event(owner=organizer, players=8, tables=2))
    report(playing, 1, seated_players(playing, 1)[0], key="in-time", game_number=1)
    close_round(round_=playing.current_round, by=organizer)
    playing.refresh_from_db()
    return playing


# --- late reports -------------------------------------------------------------------------


def test_accepting_a_late_report_for_a_new_game_counts_it_once(closed, organizer):
    bob = seated_players(closed, 1, 1)[1]
    late = report(closed, 1, bob, key="late", round_number=1, game_number=2).report

    game = accept_late_report(report=late, by=organizer)

    assert game.number == 2
    assert game.winner == bob
    late.refresh_from_db()
    assert late.state == ReportState.ACCEPTED
    assert closed.rounds.get(number=1).games_won_by_table()[1][bob.name] == 1
    with pytest.raises(Refused):
        accept_late_report(report=late, by=organizer)


def test_accepting_a_late_copy_of_a_counted_game_adds_nothing(closed, organizer):
    alice = seated_players(closed, 1, 1)[0]
    late = report(closed, 1, alice, key="late", round_number=1, game_number=1).report

    accept_late_report(report=late, by=organizer)

    assert Game.objects.filter(table__number=1).count() == 1
    assert closed.rounds.get(number=1).games_won_by_table()[1][alice.name] == 1
    assert GameCorrection.objects.filter(action="accepted_late").count() == 1


def test_accepting_a_late_report_that_disagrees_settles_the_game(closed, organizer):
    alice, bob = seated_players(closed, 1, 1)[:2]
    late = report(closed, 1, bob, key="late", round_number=1, game_number=1).report

    game = accept_late_report(report=late, by=organizer)

    assert game.number == 1
    assert game.winner == bob
    assert game.status == GameStatus.SETTLED
    standings = closed.rounds.get(number=1).games_won_by_table()[1]
    assert (standings[alice.name], standings[bob.name]) == (0, 1)


def test_dropping_a_late_report_keeps_it_out_and_is_recorded(closed, organizer):
    bob = seated_players(closed, 1, 1)[1]
    late = report(closed, 1, bob, key="late", round_number=1, game_number=2).report

    drop_late_report(report=late, by=organizer)

    late.refresh_from_db()
    assert late.state == ReportState.DROPPED
    assert not Game.objects.filter(winner=bob).exists()
    with pytest.raises(Refused):
        drop_late_report(report=late, by=organizer)


# --- corrections that come too late -------------------------------------------------------


def test_a_game_added_once_its_round_has_closed_is_refused(closed, organizer):
    """The console offered "add a game" while the round was open; the close got in first."""
    with pytest.raises(Refused, match="only while their round is open"):
        add_game(
            round_=closed.rounds.get(number=1),
            table=factories.table(closed, 1),
            winner=seated_players(closed, 1, 1)[0],
            by=organizer,
        )
    assert Game.objects.filter(table__number=1).count() == 1


def test_settling_a_game_reads_it_again_first(closed, organizer):
    """The console showed the game unconfirmed; a phone has disputed it since."""
    carol = seated_players(closed, 1, 1)[2]
    shown = Game.objects.get(table__number=1, number=1)
    Game.objects.filter(pk=shown.pk).update(status=GameStatus.DISPUTED)

    settle_game(game=shown, winner=carol, by=organizer)

    assert GameCorrection.objects.get().action == "settled"
    assert Game.objects.get(pk=shown.pk).winner == carol


def test_a_game_deleted_meanwhile_cannot_be_settled_or_deleted_again(closed, organizer):
    shown = Game.objects.get(table__number=1, number=1)
    delete_game(game=shown, by=organizer)
    alice = seated_players(closed, 1, 1)[0]
    with pytest.raises(Refused, match="deleted in the meantime"):
        settle_game(game=shown, winner=alice, by=organizer)
    with pytest.raises(Refused, match="deleted in the meantime"):
        delete_game(game=shown, by=organizer)
    assert GameCorrection.objects.count() == 1


# --- held reports (a phone that reported at another table this round) ---------------------


@pytest.fixture
def held(organizer):
    """Round 1 open; a phone reported at table 1, then game 1 at table 2: held."""
    playing = factories.start_rounds(factories.seated_event(owner=organizer, players=8, tables=2))
    report(playing, 1, seated_players(playing, 1)[0], phone="roaming")
    result = report(playing, 2, seated_players(playing, 2)[0], game_number=1, phone="roaming")
    assert result.report.state == ReportState.HELD
    return result.report


def test_accepting_a_held_report_counts_its_game_once_and_logs_it(held, organizer):
    game = accept_late_report(report=held, by=organizer)

    assert (game.table.number, game.number, game.winner) == (2, 1, held.winner)
    held.refresh_from_db()
    assert (held.state, held.game) == (ReportState.ACCEPTED, game)
    assert held.round.games_won_by_table()[2][held.winner.name] == 1
    logged = GameCorrection.objects.get(table__number=2)
    assert logged.action == CorrectionAction.ACCEPTED_HELD
    assert logged.get_action_display() == "Accepted a held report"
    with pytest.raises(Refused, match="already been handled"):
        drop_late_report(report=held, by=organizer)


def test_dropping_a_held_report_keeps_it_out_and_logs_it(held, organizer):
    drop_late_report(report=held, by=organizer)

    held.refresh_from_db()
    assert held.state == ReportState.DROPPED
    assert not Game.objects.filter(table__number=2).exists()
    logged = GameCorrection.objects.get(table__number=2)
    assert logged.action == CorrectionAction.DROPPED_HELD
    assert logged.before == {"winner": held.winner.name}
    with pytest.raises(Refused, match="already been handled"):
        accept_late_report(report=held, by=organizer)


def test_a_held_report_left_until_the_close_is_still_the_organizers_to_handle(held, organizer):
    close_round(round_=held.round, by=organizer)

    game = accept_late_report(report=held, by=organizer)

    assert game.status == GameStatus.SETTLED
