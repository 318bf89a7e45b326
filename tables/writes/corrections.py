"""The organizer's corrections to the games a round counts.

Terms:
    correction       any change the organizer makes to a round's games by hand: a game
                     added (a table without a phone), deleted, or given another winner.
    settle           decide a game's winner. A disputed game counts for nobody until it
                     is settled; settling a game that was not disputed corrects it. Either
                     way the game is then SETTLED, and later phone reports of it are kept
                     but change nothing (tables.writes.reporting).
    late report      a report that reached a round already closed (tables.writes.reporting): kept,
                     not counted, until the organizer handles it.
    held report      a report from a phone that reported at another table in the same
                     round (tables.writes.reporting): kept, not counted, like a late report.
    accept / drop    the two ways to handle a late or held report. Accepting counts it as
                     the game it names, settled by the organizer; dropping keeps it out for
                     good. Each report is handled once.
    corrections log  one GameCorrection per correction: what was done, by whom, and the game
                     before and after, so a change made in a hurry can be seen and undone.
    paper tally      a table's games typed in from its paper tally sheet (tables.rules.tally), a
                     whole table-round in one submit. Each row is a report like a phone's
                     (source "paper"), applied by the same rule (tables.writes.recording),
                     so paper and phones confirm or dispute each other, and each is
                     logged as a paper entry.

Every correction is written in one transaction together with its entry in the log, and
bumps the table's version so the console, projector and that table's phones see it. Each
locks the event first (Event.objects.lock) and reads the game again: a phone's report or
a round close that got in first is seen, never overwritten.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils.translation import gettext as _

from tables.models import (
    KEPT_FOR_THE_ORGANIZER,
    CorrectionAction,
    Game,
    GameCorrection,
    GameReport,
    GameStatus,
    ReportSource,
    ReportState,
    Table,
)
from tables.rules.tally import Existing, Row, read_tally
from tables.writes.recording import Outcome, record_reports
from tables.writes.reporting import existing_game, next_game_number, seated_players
from tournament.common.errors import Refused
from tournament.models import Event, Player, Round, RoundStatus

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def _snapshot(game: Game) -> dict[str, Any]:
    """What the log keeps of a game: enough to read what changed and to undo it by hand."""
    return {
        "winner": game.winner.name if game.winner is not None else None,
        "status": game.status,
        "finished": game.finished,
        "tricks": game.tricks,
    }


def log_correction(
    *,
    of: Game | GameReport,
    action: CorrectionAction,
    by: User | None,
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
def settle_game(*, game: Game, winner: Player, by: User | None) -> Game:
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
def delete_game(*, game: Game, by: User | None) -> None:
    """Remove a game from the results; its reports stay, dropped, so none counts again."""
    game = _locked_game(game)
    log_correction(of=game, action=CorrectionAction.DELETED, by=by, before=_snapshot(game))
    event_id, table_id = game.table.event_id, game.table_id
    game.reports.update(state=ReportState.DROPPED)
    game.delete()
    Table.objects.bump_version(table_id=table_id, event_id=event_id)


@transaction.atomic
def add_game(*, round_: Round, table: Table, winner: Player, by: User | None) -> Game:
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


def _take_kept_report(report: GameReport, *, to: ReportState) -> ReportState:
    """Mark a late or held report handled (``to``), once: what it was before, for the log.

    Conditional, so two organizers' clicks at once cannot both handle it.
    """
    state = GameReport.objects.filter(pk=report.pk).values_list("state", flat=True).first()
    if state not in KEPT_FOR_THE_ORGANIZER or not GameReport.objects.filter(
        pk=report.pk, state=state
    ).update(state=to):
        raise Refused(_("This report has already been handled."))
    return ReportState(state)


@transaction.atomic
def accept_late_report(*, report: GameReport, by: User | None) -> Game:
    """Count a late report in its (closed) round, as if it had arrived in time; or a held
    one (tables.writes.reporting) in its round, open or closed, as the organizer vouches for it.

    Its game number decides what it means, as for any report: a number with no game yet
    becomes that game; a game already recorded with the same winner is already counted
    (nothing is added, so no game counts twice); a game recorded with another winner is
    settled in favour of the report. The moves already committed are not recomputed: to
    let the game change the moves, undo the round close first.
    """
    Event.objects.lock(report.table.event_id)
    was = _take_kept_report(report, to=ReportState.ACCEPTED)
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
    held = was == ReportState.HELD
    action = CorrectionAction.ACCEPTED_HELD if held else CorrectionAction.ACCEPTED_LATE
    log_correction(of=report, action=action, by=by, before=before, after=game)
    Table.objects.bump_version(table_id=report.table_id, event_id=report.table.event_id)
    return game


@transaction.atomic
def drop_late_report(*, report: GameReport, by: User | None) -> None:
    """Keep a late or held report out of the results for good; the log remembers whom it
    named."""
    Event.objects.lock(report.table.event_id)
    was = _take_kept_report(report, to=ReportState.DROPPED)
    report.state = ReportState.DROPPED
    log_correction(
        of=report,
        action=CorrectionAction.DROPPED_HELD
        if was == ReportState.HELD
        else CorrectionAction.DROPPED_LATE,
        by=by,
        before={"winner": report.winner.name},
    )
    Table.objects.bump_version(table_id=report.table_id, event_id=report.table.event_id)


@dataclass(frozen=True)
class PaperEntry:
    """What saving a paper tally did: every row as read (with its errors), and whether the
    rows were stored. Nothing is stored while any row has an error."""

    rows: list[Row]
    saved: bool
    recorded: int = 0
    confirmed: int = 0
    disputed: int = 0

    @property
    def has_errors(self) -> bool:
        return any(row.errors for row in self.rows)


def enter_paper_tally(
    *,
    round_: Round,
    table: Table,
    entries: Mapping[int, str],
    by: User | None,
) -> PaperEntry:
    """Type in a table's paper tally sheet for one open round: every row in one transaction.

    Each row is a report from the sheet (ReportSource.PAPER), handled by the rule a
    phone's report follows (tables.writes.recording): a new game number records the game,
    unconfirmed; an existing game with the same winner is confirmed, one with another
    winner becomes disputed (a settled game keeps its winner). Each stored row also goes
    in the corrections log, marked as paper. A row already typed in from paper with the
    same winner is skipped, so saving the same form twice stores nothing new.

    The event is locked first, as every write to it is (Event.objects.lock), so a phone
    report or a second organizer waits rather than numbering the same game. The queries
    do not grow with the rows.
    """
    with transaction.atomic():
        event = Event.objects.lock(round_.event_id)
        round_, table, seated = _sheet_to_enter(event, round_, table)
        games = {
            game.number: game
            for game in Game.objects.filter(round=round_, table=table).select_related("winner")
        }
        existing = _as_the_sheet_reads(round_, table, games)
        rows = read_tally(entries, names=list(seated), existing=existing, translate=_)
        if any(row.errors for row in rows):
            return PaperEntry(rows, saved=False)
        to_save = [row for row in rows if row.to_save]
        if not to_save:
            return PaperEntry(rows, saved=True)

        before = {
            row.number: _snapshot(games[row.number]) for row in to_save if row.number in games
        }
        recorded = record_reports(
            round_=round_,
            table=table,
            reports=[
                _paper_report(row, round_=round_, table=table, seated=seated) for row in to_save
            ],
            games=games,
        )
        GameCorrection.objects.bulk_create(
            GameCorrection(
                round=round_,
                table=table,
                game=done.game,
                game_number=row.number,
                action=CorrectionAction.PAPER,
                changed_by=by,
                before=before.get(row.number),
                # The sheet's word beside the game it left: with a dispute they differ.
                after={**_snapshot(done.game), "paper": row.winner},
            )
            for row, done in zip(to_save, recorded, strict=True)
        )
        Table.objects.bump_version(table_id=table.pk, event_id=table.event_id)
        changes = [done.change for done in recorded]
        return PaperEntry(
            rows,
            saved=True,
            recorded=sum(done.outcome == Outcome.RECORDED for done in recorded),
            confirmed=changes.count(GameStatus.CONFIRMED),
            disputed=changes.count(GameStatus.DISPUTED),
        )


def _paper_report(
    row: Row, *, round_: Round, table: Table, seated: dict[str, Player]
) -> GameReport:
    """A row of the sheet as a report (unsaved), as a phone's would be."""
    # A row to save has no errors, so it named its winner.
    assert row.winner is not None
    tricks = (
        None
        if row.tricks is None
        else {str(seated[name].pk): count for name, count in row.tricks.items()}
    )
    return GameReport(
        round=round_,
        table=table,
        game_number=row.number,
        winner=seated[row.winner],
        tricks=tricks,
        finished=row.tricks is None,
        client_key=f"paper-{uuid.uuid4().hex}",
        source=ReportSource.PAPER,
    )


def _sheet_to_enter(
    event: Event, round_: Round, table: Table
) -> tuple[Round, Table, dict[str, Player]]:
    """The round and table of a sheet as they stand under the event's lock, and the
    players seated there by name; refused unless the round is open to paper results."""
    round_ = Round.objects.get(pk=round_.pk)
    table = Table.objects.get(pk=table.pk, event=event)
    table.event = event
    if event.is_finished:
        raise Refused(_("The event is finished: no more games can be reported."))
    if round_.status != RoundStatus.OPEN:
        raise Refused(_("Paper results can be typed in only while their round is open."))
    seated = {player.name: player for player in seated_players(round_, table).values()}
    if not seated:
        raise Refused(_("Nobody is seated at this table in this round."))
    return round_, table, seated


def _as_the_sheet_reads(round_: Round, table: Table, games: dict[int, Game]) -> dict[int, Existing]:
    """Each game as a row of the sheet would meet it (tables.rules.tally.Existing): the
    winner paper gave it if it was typed in before, else the game's own."""
    on_paper = dict(
        GameReport.objects.filter(
            round=round_, table=table, source=ReportSource.PAPER, game__isnull=False
        ).values_list("game_number", "winner__name")
    )
    return {
        number: Existing(
            winner=on_paper.get(number, game.winner.name if game.winner is not None else None),
            from_paper=number in on_paper,
        )
        for number, game in games.items()
    }
