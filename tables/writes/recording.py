"""What a report does to its game: the one rule that phone reports
(tables.writes.reporting) and paper tally sheets (tables.writes.corrections) share.

Terms:
    report    one statement "game k at table t was won by p" (tables.models.GameReport),
              from a phone or from a row of a paper tally sheet.
    record    a report of a game number the table does not have yet creates that game,
              unconfirmed, with the report's winner and tricks.
    confirm   a report that names the winner of an unconfirmed game confirms it.
    dispute   a report that names another winner disputes the game: it counts for nobody
              until the organizer settles it. A disputed game stays disputed, and a
              settled one keeps the organizer's winner (tables.models.Game.status_after_report).
    change    the status a report moved its game to (CONFIRMED or DISPUTED), or none: a
              third report agreeing with a confirmed game changes nothing, though its
              sender is told "confirmed". A paper entry counts the changes.
    outcome   what the sender of a report is told (Outcome): RECORDED, CONFIRMED when the
              game counts for the winner it named, DISPUTED otherwise. The other outcomes
              are the phone's alone (tables.writes.reporting).

The caller locks its event first (Event.objects.lock), in the transaction this runs in,
so no other write of the event runs meanwhile. The savepoint around new games and the
conditional confirmation still make a write that slipped past the lock (another phone
creating game k, a dispute getting in first) end as if the two had come one after the
other. The queries do not grow with the reports.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from django.db import IntegrityError, transaction
from django.utils import timezone

from tables.models import Game, GameReport, GameStatus, Table
from tournament.models import Round


class Outcome(StrEnum):
    RECORDED = "recorded"  # the first report of this game
    CONFIRMED = "confirmed"  # a second report agreed
    DISPUTED = "disputed"  # a report disagreed
    REPEATED = "repeated"  # the same client key again: nothing new stored
    LATE = "late"  # the round was closed: kept for the organizer
    HELD = "held"  # the phone reported at another table this round: kept for the organizer
    DUPLICATE = "duplicate"  # this phone had reported this game already: nothing new stored


@dataclass(frozen=True)
class Recorded:
    """What one report did (see Terms): its outcome, its game, and the change it made."""

    outcome: Outcome
    game: Game
    change: str | None = None


def record_reports(
    *, round_: Round, table: Table, reports: list[GameReport], games: Mapping[int, Game]
) -> list[Recorded]:
    """Store reports of one table's games in a round, each of its own game number, and
    apply each to its game (see Terms): one Recorded per report, in their order.

    ``reports`` are new, unsaved, and counted (not late or held). ``games`` are the
    table's games in the round as the caller read them, by number: those the reports name,
    at least. A number among them is judged against its game; any other is recorded.
    """
    games = dict(games)
    made = _create_games(round_, table, [r for r in reports if r.game_number not in games], games)
    for report in reports:
        report.game = games[report.game_number]
    GameReport.objects.bulk_create(reports)
    # Each report's game read from ``games`` (the object just set on it), where it is a Game
    # rather than the field's Game | None.
    judged = [
        (report, games[report.game_number]) for report in reports if report.game_number not in made
    ]
    changes = dict(zip((r.game_number for r, _game in judged), _judge(judged), strict=True))
    recorded = []
    for report in reports:
        game = games[report.game_number]
        if report.game_number in made:
            recorded.append(Recorded(Outcome.RECORDED, game))
            continue
        # A settled game keeps the organizer's winner: a report naming it agrees with it.
        agrees = game.status != GameStatus.DISPUTED and game.winner_id == report.winner_id
        outcome = Outcome.CONFIRMED if agrees else Outcome.DISPUTED
        recorded.append(Recorded(outcome, game, changes[report.game_number]))
    return recorded


def _create_games(
    round_: Round, table: Table, reports: list[GameReport], games: dict[int, Game]
) -> set[int]:
    """Create the games these reports are the first of, add them to ``games``, and return
    their numbers."""
    new = [
        Game(
            round=round_,
            table=table,
            number=report.game_number,
            winner=report.winner,
            tricks=report.tricks,
            finished=report.finished,
            reported_by=report.get_source_display(),
        )
        for report in reports
    ]
    if not new:
        return set()
    try:
        # A savepoint holding only the games: if another phone created game k a moment
        # ago, the unique constraint fails here and this report becomes the second one.
        with transaction.atomic():
            Game.objects.bulk_create(new)
    except IntegrityError:
        there = Game.objects.filter(
            round=round_, table=table, number__in=[game.number for game in new]
        )
        found = {game.number: game for game in there}
        if not found:
            raise  # not a game made meanwhile: a failure of its own
        games.update(found)
        left = [report for report in reports if report.game_number not in games]
        return _create_games(round_, table, left, games)
    games.update({game.number: game for game in new})
    return {game.number for game in new}


def _judge(judged: list[tuple[GameReport, Game]]) -> list[str | None]:
    """What each report makes of a game that exists already (see Terms: change), written
    to the games, with their status updated in memory too."""
    changes = [game.status_after_report(report.winner_id) for report, game in judged]
    now = timezone.now()
    dispute = [judged[i][1] for i, change in enumerate(changes) if change == GameStatus.DISPUTED]
    if dispute:
        Game.objects.filter(pk__in=[game.pk for game in dispute]).exclude(
            status=GameStatus.SETTLED
        ).update(status=GameStatus.DISPUTED, updated_at=now)
        for game in dispute:
            game.status = GameStatus.DISPUTED
    confirm = [i for i, change in enumerate(changes) if change == GameStatus.CONFIRMED]
    if not confirm:
        return changes
    # Conditional: a game that is no longer unconfirmed when the update runs (a dispute
    # got in first) is judged again as it is now, so nobody is told "confirmed" about a
    # game that is disputed.
    if Game.objects.filter(
        pk__in=[judged[i][1].pk for i in confirm], status=GameStatus.UNCONFIRMED
    ).update(status=GameStatus.CONFIRMED, updated_at=now) < len(confirm):
        for i in confirm:
            judged[i][1].refresh_from_db(fields=["status", "winner"])
        again = [i for i in confirm if judged[i][1].status != GameStatus.CONFIRMED]
        for i, change in zip(again, _judge([judged[i] for i in again]), strict=True):
            changes[i] = change
        confirm = [i for i in confirm if i not in again]
    for i in confirm:
        judged[i][1].status = GameStatus.CONFIRMED
    return changes
