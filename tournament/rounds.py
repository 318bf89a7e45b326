"""Running the event: phases, closing a round, and undoing a close.

Terms:
    phase        setup -> study -> practice -> round 1 -> between rounds -> round 2 ... ->
                 debrief (see tournament.models.Phase).
    close        the organizer confirms a round's results: the round is closed, the moves
                 from tournament.movement are committed as the next round's seating, and
                 the event shows the moves (between rounds). After the last round there
                 is no next seating.
    disputed     a game whose phones named different winners; it counts for nobody
                 until the organizer settles it. Closing with one needs their explicit
                 consent, since it can decide who moves.
    undo         reopen the last closed round and drop the seating it produced; allowed
                 while that next round has no reported game, and never once the debrief
                 has started: the table phones stop asking for news then, so they would
                 not see the round open again. The results are final.
    not present  seated in the round being closed but absent or removed now: their games
                 still count (the round's results stand), their move is not applied, and
                 once back they start at the lowest table.
    returning    a present player who had no seat in the closed round (absent before,
                 or added late); they start the next round at the lowest table.
    expected     what the organizer's form showed (a phase, a round number). A second
                 click of the same button, or another tab, finds the event moved on and
                 is refused instead of doing the step twice.

All writes happen in one transaction each; a failure halfway leaves nothing changed.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tables.models import Game, GameCorrection, GameReport, GameStatus, ReportState, Table
from tournament.common.errors import Refused
from tournament.models import (
    Event,
    Phase,
    Player,
    PlayerStatus,
    Round,
    RoundStatus,
    Seat,
    SeatReason,
)
from tournament.movement import Move, explain_moves
from tournament.ordering import name_key


@dataclass(frozen=True)
class ClosePreview:
    """What closing a round would do, for the organizer to check before confirming.

    ``version`` is the event's version when the preview was made; passing it back to
    close_round refuses the close if anything changed in between.
    """

    round: Round
    standings: dict[int, dict[str, int]]
    moves: dict[str, Move]
    games_needing_attention: list[Game]
    late_reports: list[GameReport]
    version: int
    not_present: frozenset[str] = frozenset()  # seated this round, absent or removed now
    removed: frozenset[str] = frozenset()  # the part of not_present removed from the roster
    returning: tuple[str, ...] = ()  # present now, not seated this round: join the lowest
    seats_next_round: bool = True  # False after the last round: nobody moves

    @property
    def moves_by_table(self) -> dict[int, list[Move]]:
        grouped: dict[int, list[Move]] = {number: [] for number in sorted(self.standings)}
        for move in sorted(self.moves.values(), key=lambda m: (m.from_table, m.rank)):
            grouped[move.from_table].append(move)
        return grouped

    @property
    def next_sizes(self) -> dict[int, int]:
        """Players at each table next round, once absent players and returners count."""
        sizes = Counter(
            move.to_table for name, move in self.moves.items() if name not in self.not_present
        )
        if self.returning and self.standings:
            sizes[min(self.standings)] += len(self.returning)
        return {number: sizes.get(number, 0) for number in sorted(self.standings)}

    @property
    def disputed(self) -> list[Game]:
        return [g for g in self.games_needing_attention if g.status == GameStatus.DISPUTED]

    @property
    def unconfirmed(self) -> list[Game]:
        return [g for g in self.games_needing_attention if g.status == GameStatus.UNCONFIRMED]

    @property
    def tables_without_games(self) -> list[int]:
        """Tables whose players all have 0 games and no game of theirs is disputed (a
        disputed game was reported: it is listed as a dispute instead)."""
        disputed_at = {game.table.number for game in self.disputed}
        return [
            number
            for number, games in sorted(self.standings.items())
            if games and not any(games.values()) and number not in disputed_at
        ]


def preview_close(round_: Round) -> ClosePreview:
    """Everything the organizer checks before closing a round; a constant number of queries."""
    event = Event.objects.get(pk=round_.event_id)
    round_.event = event
    standings = round_.games_won_by_table()
    seated = {name for games in standings.values() for name in games}
    status_of = dict(event.players.values_list("name", "status"))
    present = {name for name, status in status_of.items() if status == PlayerStatus.PRESENT}
    not_present = seated - present
    return ClosePreview(
        round=round_,
        standings=standings,
        moves=explain_moves(standings),
        games_needing_attention=list(
            round_.games.needing_attention()
            .select_related("table", "winner")
            .prefetch_related("reports__winner")
        ),
        late_reports=list(
            round_.reports.filter(state=ReportState.LATE).select_related("table", "winner")
        ),
        version=event.version,
        not_present=frozenset(not_present),
        removed=frozenset(n for n in not_present if status_of.get(n) == PlayerStatus.REMOVED),
        returning=tuple(sorted(present - seated, key=name_key)),
        seats_next_round=round_.number < event.rounds_planned,
    )


def _start_clock(event: Event, phase: str, now: datetime) -> None:
    event.phase = phase
    minutes = event.phase_minutes(phase)
    if minutes:
        event.start_clock(minutes, now)
    else:
        event.stop_clock()


def _refuse_unless_phase(event: Event, expected_phase: str | None) -> None:
    """expected_phase is a bare phase ("study") or, from the console's buttons, a
    phase_key ("round:2") that also pins the round."""
    if expected_phase is None:
        return
    current = event.phase_key if ":" in expected_phase else event.phase
    if expected_phase != current:
        raise Refused(_("The event has already moved on: check where it stands."))


@transaction.atomic
def advance_phase(
    *, event: Event, expected_phase: str | None = None, now: datetime | None = None
) -> Event:
    """Move the event to its next phase and start that phase's clock.

    Setup -> study needs a seating; practice -> round 1 and between rounds -> next round
    open the planned round. A round itself ends only through close_round.
    expected_phase is the phase the organizer's button was shown in: a double click
    must not skip the study (or any) phase.
    """
    now = now or timezone.now()
    event = Event.objects.get(pk=event.pk)
    _refuse_unless_phase(event, expected_phase)
    fields = ["phase", "clock_ends_at", "clock_paused_remaining"]
    if event.phase == Phase.SETUP:
        if (
            not event.rounds.filter(number=1).exists()
            or not Seat.objects.filter(round__event=event, round__number=1).exists()
        ):
            raise Refused(_("Make the table plan first: players need a home table to study at."))
        _start_clock(event, Phase.STUDY, now)
    elif event.phase == Phase.STUDY:
        _start_clock(event, Phase.PRACTICE, now)
    elif event.phase in (Phase.PRACTICE, Phase.BETWEEN_ROUNDS):
        next_round = event.rounds.filter(status=RoundStatus.PLANNED).order_by("number").first()
        if next_round is None:
            _start_clock(event, Phase.DEBRIEF, now)
        else:
            if not next_round.seats.exists():
                raise Refused(_("Nobody is seated for the next round. Mark players present first."))
            updated = Round.objects.filter(pk=next_round.pk, status=RoundStatus.PLANNED).update(
                status=RoundStatus.OPEN, started_at=now
            )
            if not updated:
                raise Refused(_("That round has already started."))
            event.round_number = next_round.number
            fields.append("round_number")
            _start_clock(event, Phase.ROUND, now)
    elif event.phase == Phase.ROUND:
        raise Refused(_("Close the round first: check its results, then confirm the moves."))
    else:
        raise Refused(_("The event is over: this is the debrief."))
    event.save_and_bump(fields)
    return event


class ClockAction(StrEnum):
    """What the organizer can do to the running clock (the values appear in URLs)."""

    PAUSE = "pause"
    RESUME = "resume"
    ADD_MINUTE = "add-minute"
    TIME_UP = "time-up"


@transaction.atomic
def change_clock(
    *,
    event: Event,
    action: ClockAction,
    expected_phase: str | None = None,
    now: datetime | None = None,
) -> Event:
    """Pause, resume, add a minute to or end the phase's clock.

    The event is read again inside the transaction, so the change applies to the clock
    that runs now, never to one a phase change has just replaced.
    """
    now = now or timezone.now()
    event = Event.objects.get(pk=event.pk)
    _refuse_unless_phase(event, expected_phase)
    if not event.has_clock:
        raise Refused(_("No clock runs in this phase."))
    if action == ClockAction.PAUSE:
        event.pause_clock(now)
    elif action == ClockAction.RESUME:
        event.resume_clock(now)
    elif action == ClockAction.ADD_MINUTE:
        event.add_clock_time(60, now)
    elif action == ClockAction.TIME_UP:
        event.end_clock_now(now)
    else:
        raise ValueError(f"unknown clock action: {action!r}")
    event.save_and_bump(["clock_ends_at", "clock_paused_remaining"])
    return event


@transaction.atomic
def start_debrief(*, event: Event, now: datetime | None = None) -> Event:
    """End the tournament early or on time; a round still open must be closed first."""
    event = Event.objects.get(pk=event.pk)
    if event.phase == Phase.DEBRIEF:
        raise Refused(_("The debrief has already started."))
    if event.phase == Phase.SETUP:
        raise Refused(_("Nothing has been played yet: start the study phase first."))
    if event.rounds.filter(status=RoundStatus.OPEN).exists():
        raise Refused(_("Close the round that is being played before the debrief."))
    _start_clock(event, Phase.DEBRIEF, now or timezone.now())
    event.save_and_bump(["phase", "clock_ends_at", "clock_paused_remaining"])
    return event


@transaction.atomic
def close_round(
    *,
    round: Round,
    by,
    expected_version: int | None = None,
    disputed_count_for_nobody: bool = True,
    now: datetime | None = None,
) -> dict[str, Move]:
    """Close an open round and commit the next round's seating from its results.

    expected_version guards against confirming moves that changed after the organizer
    looked at them (a late report arrived): the close is refused and shown again.
    The organizer's form passes disputed_count_for_nobody=False unless they ticked
    "close anyway": a round with a disputed game is then refused.
    """
    now = now or timezone.now()
    round_ = round
    event = Event.objects.get(pk=round_.event_id)
    round_.event = event  # games_won_by_table reads the event's tables through it
    if expected_version is not None and event.version != expected_version:
        raise Refused(_("Results changed while you were looking. Check the moves again."))
    if not disputed_count_for_nobody:
        disputed = round_.games.filter(status=GameStatus.DISPUTED).count()
        if disputed:
            raise Refused(
                ngettext(
                    "%(count)s game is disputed. Settle it, or tick “Close anyway”: it then "
                    "counts for nobody.",
                    "%(count)s games are disputed. Settle them, or tick “Close anyway”: they "
                    "then count for nobody.",
                    disputed,
                )
                % {"count": disputed}
            )
    # The status filter makes a second, concurrent close a no-op rather than a double move.
    if not Round.objects.filter(pk=round_.pk, status=RoundStatus.OPEN).update(
        status=RoundStatus.CLOSED, closed_at=now, closed_by=by
    ):
        raise Refused(_("This round is not open, so it cannot be closed."))

    standings = round_.games_won_by_table()
    moves = explain_moves(standings)
    if round_.number < event.rounds_planned:
        _seat_next_round(event, round_, moves)
    event.phase = Phase.BETWEEN_ROUNDS
    event.stop_clock()
    event.save_and_bump(["phase", "clock_ends_at", "clock_paused_remaining"])
    return moves


def _seat_next_round(event: Event, closed: Round, moves: dict[str, Move]) -> Round:
    tables = {table.number: table for table in Table.objects.filter(event=event)}
    lowest = tables[min(tables)]
    next_round = Round.objects.create(event=event, number=closed.number + 1)
    present = {p.name: p for p in event.players.filter(status=PlayerStatus.PRESENT)}
    seats = []
    for name, move in moves.items():
        player = present.pop(name, None)
        if player is None:
            continue  # absent or removed since: not seated, their move is not applied
        seats.append(
            Seat(
                round=next_round,
                player=player,
                table=tables[move.to_table],
                from_table=tables[move.from_table],
                reason=SeatReason(move.reason.value),
                games_won_before=move.games,
                tie_broken=move.tie_broken,
            )
        )
    seats.extend(
        Seat(round=next_round, player=player, table=lowest, reason=SeatReason.RETURNING)
        for player in present.values()
    )
    Seat.objects.bulk_create(seats)
    return next_round


def _nothing_closed() -> str:
    return _("No round has been closed yet.")


def _next_round_has_games(next_number: int) -> str:
    return _("Round %(number)s already has reported games, so the close cannot be undone.") % {
        "number": next_number
    }


def _debrief_started() -> str:
    return _("The debrief has started: the results are final.")


@transaction.atomic
def undo_close_round(
    *, event: Event, expected_round: int | None = None, now: datetime | None = None
) -> Round:
    """Reopen the last closed round, dropping the next round's seating.

    Refused once the next round has a reported game (or a report), because undoing would
    throw results away, and once the debrief has started (see Terms: undo).
    expected_round is the round whose close the organizer's button offered to undo: a
    second click must not undo the round before it as well.
    """
    event = Event.objects.get(pk=event.pk)
    if event.phase == Phase.DEBRIEF:
        raise Refused(_debrief_started())
    last_closed = event.rounds.filter(status=RoundStatus.CLOSED).order_by("-number").first()
    if expected_round is not None and (last_closed is None or last_closed.number != expected_round):
        if last_closed is None or last_closed.number < expected_round:
            raise Refused(
                _("The close of round %(number)s has already been undone.")
                % {"number": expected_round}
            )
        raise Refused(
            _("Round %(number)s has been closed since: check its moves before undoing.")
            % {"number": last_closed.number}
        )
    if last_closed is None:
        raise Refused(_nothing_closed())
    following = event.rounds.filter(number=last_closed.number + 1).first()
    if following is not None:
        if (
            Game.objects.filter(round=following).exists()
            or GameReport.objects.filter(round=following).exists()
            or GameCorrection.objects.filter(round=following).exists()
        ):
            raise Refused(_next_round_has_games(following.number))
        following.delete()
    Round.objects.filter(pk=last_closed.pk).update(
        status=RoundStatus.OPEN, closed_at=None, closed_by=None
    )
    event.phase = Phase.ROUND
    event.round_number = last_closed.number
    # The round's time was up when it was closed; it stays up, so screens say so.
    event.clock_ends_at = now or timezone.now()
    event.clock_paused_remaining = None
    event.save_and_bump(["phase", "round_number", "clock_ends_at", "clock_paused_remaining"])
    last_closed.refresh_from_db()
    return last_closed


def undo_blocker(event: Event, rounds: list[Round], next_round_has_games: bool) -> str | None:
    """Why the last close cannot be undone now, or None when it can (for the console).

    The same reasons undo_close_round gives, from rows the console has already loaded.
    """
    if event.phase == Phase.DEBRIEF:
        return _debrief_started()
    closed = [r for r in rounds if r.status == RoundStatus.CLOSED]
    if not closed:
        return _nothing_closed()
    if next_round_has_games:
        return _next_round_has_games(closed[-1].number + 1)
    return None


@transaction.atomic
def reveal_rules(*, event: Event, revealed: bool = True) -> Event:
    """Show (or hide again) every table's rules on the projector; only at the debrief."""
    event = Event.objects.get(pk=event.pk)
    if revealed and event.phase != Phase.DEBRIEF:
        raise Refused(_("The rules are revealed at the debrief, after the last round."))
    event.rules_revealed = revealed
    event.save_and_bump(["rules_revealed"])
    return event


@transaction.atomic
def delete_event(*, event: Event) -> None:
    """Delete an event and everything in it (a rehearsal, a mistake)."""
    # Seats and games protect players and tables, so the rounds (and with them seats,
    # games and reports) go first.
    Round.objects.filter(event=event).delete()
    Player.objects.filter(event=event).delete()
    Event.objects.filter(pk=event.pk).delete()
