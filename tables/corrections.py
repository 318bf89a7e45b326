"""The organizer's corrections to the games a round counts.

Terms:
    correction       any change the organizer makes to a round's games by hand: a game
                     added (a table without a phone), deleted, or given another winner.
    settle           decide a game's winner. A disputed game counts for nobody until it
                     is settled; settling a game that was not disputed corrects it. Either
                     way the game is then SETTLED, and later phone reports of it are kept
                     but change nothing (tables.reporting).
    late report      a report that reached a round already closed (tables.reporting): kept,
                     not counted, until the organizer handles it.
    accept / drop    the two ways to handle a late report. Accepting counts it as the game
                     it names, as if it had arrived in time; dropping keeps it out for good.
                     Each report is handled once.
    corrections log  one GameCorrection per correction: what was done, by whom, and the game
                     before and after, so a change made in a hurry can be seen and undone.

Every correction is written in one transaction together with its entry in the log, and
bumps the table's version so the console, projector and that table's phones see it. Each
locks the event first (Event.objects.lock) and reads the game again: a phone's report or
a round close that got in first is seen, never overwritten.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils.translation import gettext as _

from tables.models import (
    CorrectionAction,
    Game,
    GameCorrection,
    GameReport,
    GameStatus,
    ReportState,
    Table,
)
from tables.reporting import existing_game, next_game_number, seated_players
from tournament.common.errors import Refused
from tournament.models import Event, Player, Round, RoundStatus

if TYPE_CHECKING:
    from django.contrib.auth.base_user import AbstractBaseUser


def _snapshot(game: Game) -> dict[str, Any]:
    """What the log keeps of a game: enough to read what changed and to undo it by hand."""
    return {
        "winner": game.winner.name if game.winner_id else None,
        "status": game.status,
        "finished": game.finished,
        "tricks": game.tricks,
    }


def log_correction(
    *,
    of: Game | GameReport,
    action: CorrectionAction,
    by: AbstractBaseUser | None,
    before: dict[str, Any] | None = None,
    after: Game | None = None,
) -> GameCorrection:
    """Write one entry of the corrections log, about a game or a (late) report.

    ``after`` is the game as the correction left it: the entry links to it and keeps its
    snapshot. Without it (a game deleted, a report dropped) the entry links to no game,
    and only the game number says which one it was.
    """
    return GameCorrection.objects.create(
        round=of.round,
        table=of.table,
        game=after,
        game_number=of.number if isinstance(of, Game) else of.game_number,
        action=action,
        changed_by=by,
        before=before,
        after=None if after is None else _snapshot(after),
    )


def _refuse_unless_seated(winner: Player, round_: Round, table: Table) -> None:
    if winner.pk not in seated_players(round_, table):
        raise Refused(_("That player is not seated at this table in this round."))


def _locked_game(game: Game) -> Game:
    """The game as it stands now, once no report or close of its event can change it."""
    Event.objects.lock(game.table.event_id)
    current = Game.objects.select_related("round", "table", "winner").filter(pk=game.pk).first()
    if current is None:
        raise Refused(_("That game has been deleted in the meantime."))
    return current


@transaction.atomic
def settle_game(*, game: Game, winner: Player, by: AbstractBaseUser | None) -> Game:
    """Decide a game's winner (a dispute, or a correction); recorded with who did it."""
    game = _locked_game(game)
    _refuse_unless_seated(winner, game.round, game.table)
    before = _snapshot(game)
    if game.status == GameStatus.DISPUTED:
        # The log shows both claims beside the decision, not just the first claim.
        before["claims"] = list(
            dict.fromkeys(
                game.reports.order_by("received_at", "pk").values_list("winner__name", flat=True)
            )
        )
    action = (
        CorrectionAction.SETTLED
        if game.status == GameStatus.DISPUTED
        else CorrectionAction.CORRECTED
    )
    game.winner = winner
    game.status = GameStatus.SETTLED
    game.save(update_fields=["winner", "status", "updated_at"])
    log_correction(of=game, action=action, by=by, before=before, after=game)
    Table.objects.bump_version(table_id=game.table_id, event_id=game.table.event_id)
    return game


@transaction.atomic
def delete_game(*, game: Game, by: AbstractBaseUser | None) -> None:
    """Remove a game from the results; its reports stay, dropped, so none counts again."""
    game = _locked_game(game)
    log_correction(of=game, action=CorrectionAction.DELETED, by=by, before=_snapshot(game))
    event_id, table_id = game.table.event_id, game.table_id
    game.reports.update(state=ReportState.DROPPED)
    game.delete()
    Table.objects.bump_version(table_id=table_id, event_id=event_id)


@transaction.atomic
def add_game(*, round_: Round, table: Table, winner: Player, by: AbstractBaseUser | None) -> Game:
    """The organizer enters a game by hand (a table without a phone), while its round is
    open: a game added to a closed round would count in no close."""
    Event.objects.lock(table.event_id)
    if not Round.objects.filter(pk=round_.pk, status=RoundStatus.OPEN).exists():
        raise Refused(_("Games can be added only while their round is open."))
    _refuse_unless_seated(winner, round_, table)
    game = Game.objects.create(
        round=round_,
        table=table,
        number=next_game_number(round_=round_, table=table),
        winner=winner,
        status=GameStatus.SETTLED,
        reported_by=by.get_username() if by else "",
    )
    log_correction(of=game, action=CorrectionAction.ADDED, by=by, after=game)
    Table.objects.bump_version(table_id=table.pk, event_id=table.event_id)
    return game


@transaction.atomic
def accept_late_report(*, report: GameReport, by: AbstractBaseUser | None) -> Game:
    """Count a late report in its (closed) round, as if it had arrived in time.

    Its game number decides what it means, as for any report: a number with no game yet
    becomes that game; a game already recorded with the same winner is already counted
    (nothing is added, so no game counts twice); a game recorded with another winner is
    settled in favour of the report. The moves already committed are not recomputed: to
    let the game change the moves, undo the round close first.
    """
    Event.objects.lock(report.table.event_id)
    # Conditional, so two organizers' clicks at once cannot both count the report.
    if not GameReport.objects.filter(pk=report.pk, state=ReportState.LATE).update(
        state=ReportState.ACCEPTED
    ):
        raise Refused(_("This report has already been handled."))
    game = existing_game(report.round, report.table, report.game_number)
    before = None if game is None else _snapshot(game)
    if game is None:
        game = Game.objects.create(
            round=report.round,
            table=report.table,
            number=report.game_number,
            winner=report.winner,
            tricks=report.tricks,
            finished=report.finished,
            status=GameStatus.SETTLED,
            reported_by=report.get_source_display(),
        )
    elif game.winner_id != report.winner_id or game.status == GameStatus.DISPUTED:
        game.winner = report.winner
        game.status = GameStatus.SETTLED
        game.save(update_fields=["winner", "status", "updated_at"])
    report.game = game
    report.state = ReportState.ACCEPTED
    report.save(update_fields=["game", "state"])
    log_correction(
        of=report, action=CorrectionAction.ACCEPTED_LATE, by=by, before=before, after=game
    )
    Table.objects.bump_version(table_id=report.table_id, event_id=report.table.event_id)
    return game


@transaction.atomic
def drop_late_report(*, report: GameReport, by: AbstractBaseUser | None) -> None:
    """Keep a late report out of the results for good; the log remembers whom it named."""
    Event.objects.lock(report.table.event_id)
    # Conditional, like accepting: a report is handled once.
    if not GameReport.objects.filter(pk=report.pk, state=ReportState.LATE).update(
        state=ReportState.DROPPED
    ):
        raise Refused(_("This report has already been handled."))
    report.state = ReportState.DROPPED
    log_correction(
        of=report,
        action=CorrectionAction.DROPPED_LATE,
        by=by,
        before={"winner": report.winner.name},
    )
    Table.objects.bump_version(table_id=report.table_id, event_id=report.table.event_id)
