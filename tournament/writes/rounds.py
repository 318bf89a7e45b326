"""Running the event: phases, closing a round, and undoing a close.

Terms:
    phase        setup -> study -> practice -> round 1 -> between rounds -> round 2 ... ->
                 debrief (see tournament.models.Phase).
    close        the organizer confirms a round's results: the round is closed, the moves
                 from tournament.rules.movement are committed as the next round's seating, and
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
    shown moves  the close page's seating (tournament.rules.movement: seating), posted
                 back as its fingerprint. A close is refused only when the seating it
                 would commit differs: a report that changes nobody's move, however many
                 arrive while the organizer looks, does not stop it.

All writes happen in one transaction each; a failure halfway leaves nothing changed.
Each one locks the event's row first (Event.objects.lock), so a phone's report and the
organizer's click never interleave, on PostgreSQL as on SQLite.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tables.models import Game, GameCorrection, GameReport, GameStatus, Play, Table
from tables.writes.screen_deals import deal_screen_tables
from tables.writes.screen_organizer import count_games_in_play
from tournament.common.errors import Refused
from tournament.models import (
    SCREEN_EVENT_STEPS,
    DebriefStep,
    Event,
    Phase,
    Player,
    PlayerStatus,
    Round,
    RoundStatus,
    Seat,
)
from tournament.rules.movement import Move, explain_moves, planned_seating, seating_fingerprint
from tournament.writes.backups import Moment, back_up_after_commit
from tournament.writes.seating import seat_next_round


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
    event = Event.objects.lock(event.pk)
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
            back_up_after_commit(event=event, moment=Moment.DEBRIEF)
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
    # On screens, practice and every round begin with a deal at each table.
    deal_screen_tables(event=event, now=now)
    return event


class MovesChanged(Refused):
    """A close refused because its moves are not the ones the organizer was shown."""

    def __init__(self) -> None:
        super().__init__(
            _(
                "Some moves changed while you were looking: a result that came in sends "
                "someone to another table. The changed moves are marked below. Check them, "
                "then confirm again."
            )
        )


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
    event = Event.objects.lock(event.pk)
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
    if action == ClockAction.ADD_MINUTE:
        # Time given back to a round whose games were counted (its close undone): the
        # screen tables get a new deal where none is in play.
        deal_screen_tables(event=event, now=now, keep=True)
    return event


@transaction.atomic
def start_debrief(*, event: Event, now: datetime | None = None) -> Event:
    """End the tournament early or on time; a round still open must be closed first.
    Once it commits, a backup is taken (tournament.writes.backups: automatic)."""
    event = Event.objects.lock(event.pk)
    if event.phase == Phase.DEBRIEF:
        raise Refused(_("The debrief has already started."))
    if event.phase == Phase.SETUP:
        raise Refused(_("Nothing has been played yet: start the study phase first."))
    if event.rounds.filter(status=RoundStatus.OPEN).exists():
        raise Refused(_("Close the round that is being played before the debrief."))
    _start_clock(event, Phase.DEBRIEF, now or timezone.now())
    event.save_and_bump(["phase", "clock_ends_at", "clock_paused_remaining"])
    back_up_after_commit(event=event, moment=Moment.DEBRIEF)
    return event


@transaction.atomic
def close_round(
    *,
    round_: Round,
    by,
    expected_moves: str | None = None,
    disputed_count_for_nobody: bool = True,
    now: datetime | None = None,
) -> dict[str, Move]:
    """Close an open round and commit the next round's seating from its results.

    expected_moves is the fingerprint of the moves the organizer was shown (see Terms:
    shown moves): when the close would commit other moves it raises MovesChanged and
    changes nothing. Results that leave every move as shown do not stop it.
    The organizer's form passes disputed_count_for_nobody=False unless they ticked
    "close anyway": a round with a disputed game is then refused.
    Once the close commits, a backup is taken (tournament.writes.backups: automatic).
    """
    now = now or timezone.now()
    # Locked first: a phone's report either committed before (and is in these results)
    # or waits, then finds the round closed and is kept as late.
    event = Event.objects.lock(round_.event_id)
    round_.event = event  # games_won_by_table reads the event's tables through it
    if event.on_screens:
        # The games in play count by tricks so far, as at a real table when time is up.
        count_games_in_play(round_=round_, now=now)
    standings = round_.games_won_by_table()
    seats_next_round = round_.number < event.rounds_planned
    # Read once: for the moves' check and for the seating (no seating after the last round).
    present = (
        {player.name: player for player in event.players.filter(status=PlayerStatus.PRESENT)}
        if seats_next_round
        else {}
    )
    if expected_moves is not None:
        seating = planned_seating(
            standings, present=present.keys(), seats_next_round=seats_next_round
        )
        if seating_fingerprint(seating) != expected_moves:
            raise MovesChanged()
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

    moves = explain_moves(standings)
    if seats_next_round:
        seat_next_round(event=event, closed=round_, moves=moves, present=present)
    event.phase = Phase.BETWEEN_ROUNDS
    event.stop_clock()
    event.save_and_bump(["phase", "clock_ends_at", "clock_paused_remaining"])
    back_up_after_commit(event=event, moment=Moment.ROUND_CLOSED, round_number=round_.number)
    return moves


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
    event = Event.objects.lock(event.pk)
    last_closed = event.rounds.filter(status=RoundStatus.CLOSED).order_by("-number").first()
    if (
        event.phase != Phase.DEBRIEF
        and expected_round is not None
        and (last_closed is None or last_closed.number != expected_round)
    ):
        if last_closed is None or last_closed.number < expected_round:
            raise Refused(
                _("The close of round %(number)s has already been undone.")
                % {"number": expected_round}
            )
        raise Refused(
            _("Round %(number)s has been closed since: check its moves before undoing.")
            % {"number": last_closed.number}
        )
    following = event.rounds.filter(number=last_closed.number + 1).first() if last_closed else None
    following_has_games = following is not None and (
        Game.objects.filter(round=following).exists()
        or GameReport.objects.filter(round=following).exists()
        or GameCorrection.objects.filter(round=following).exists()
        # A card played on screens in the next round is a game under way: kept too.
        or Play.objects.filter(deal__round=following).exists()
    )
    refusal = event.undo_refusal(
        last_closed_number=last_closed.number if last_closed else None,
        next_round_has_games=following_has_games,
    )
    if refusal:
        raise Refused(refusal)
    # undo_refusal refuses when no round was closed; said again for the type checker.
    assert last_closed is not None
    if following is not None:
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


@transaction.atomic
def reveal_rules(*, event: Event, revealed: bool = True) -> Event:
    """Show (or hide again) every table's rules on the projector; only at the debrief."""
    event = Event.objects.lock(event.pk)
    if revealed and event.phase != Phase.DEBRIEF:
        raise Refused(_("The rules are revealed at the debrief, after the last round."))
    event.rules_revealed = revealed
    fields = ["rules_revealed"]
    if revealed:
        event.debrief_step = DebriefStep.REVEAL
        fields.append("debrief_step")
    else:
        # Hiding them all hides the tables revealed one by one too, and the projector
        # goes back to the debrief's first screen, as it showed before the reveal.
        Table.objects.filter(event=event, revealed=True).update(revealed=False)
        event.debrief_step = DebriefStep.OPENING
        fields.append("debrief_step")
    event.save_and_bump(fields)
    return event


@transaction.atomic
def reveal_table(*, event: Event, table_number: int) -> Table:
    """Show one more table's rules on the projector, at the debrief's reveal screen."""
    event = Event.objects.lock(event.pk)
    if event.phase != Phase.DEBRIEF:
        raise Refused(_("The rules are revealed at the debrief, after the last round."))
    table = Table.objects.filter(event=event, number=table_number).first()
    if table is None:
        raise Refused(_("There is no table %(number)s.") % {"number": table_number})
    table.revealed = True
    table.save(update_fields=["revealed"])
    event.debrief_step = DebriefStep.REVEAL
    event.save_and_bump(["debrief_step"])
    return table


@transaction.atomic
def step_debrief(*, event: Event, to_step: int) -> Event:
    """Show another debrief screen on the projector (DebriefStep); only at the debrief.

    Stepping back from the reveal leaves what was revealed revealed: the organizer hides
    the rules with reveal_rules(revealed=False).
    """
    event = Event.objects.lock(event.pk)
    if event.phase != Phase.DEBRIEF:
        raise Refused(_("The debrief screens come after the last round."))
    # A question is shown with tournament.writes.debrief_bank.show_question, which names it.
    if to_step not in DebriefStep.values or to_step == DebriefStep.QUESTION:
        raise Refused(_("There is no such debrief screen."))
    if to_step in SCREEN_EVENT_STEPS and not event.on_screens:
        raise Refused(_("There is no such debrief screen."))
    if event.debrief_step != to_step:
        event.debrief_step = to_step
        event.save_and_bump(["debrief_step"])
    return event


@transaction.atomic
def delete_event(*, event: Event) -> None:
    """Delete an event and everything in it (a rehearsal, a mistake)."""
    # A report that is being stored finishes first; one that comes after finds no event.
    if Event.objects.select_for_update().filter(pk=event.pk).first() is None:
        return
    # Seats and games protect players and tables, so the rounds (and with them seats,
    # games and reports) go first.
    Round.objects.filter(event=event).delete()
    Player.objects.filter(event=event).delete()
    Event.objects.filter(pk=event.pk).delete()
