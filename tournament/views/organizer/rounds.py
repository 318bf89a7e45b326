"""The play: the next phase, the clock, and closing a round (the check page, its live
part, the confirm) or undoing the last close.

Terms:
    expected  what the button's page showed (the phase, the round whose close to undo),
              posted back so that a double click or a second tab is refused instead of
              doing the step twice (see tournament.writes.rounds).
    close check  the page that shows a round's results and the moves they make, refreshed
              by polling until the organizer confirms it with the fingerprint of the
              moves it showed (tournament.writes.rounds: shown moves).
    shown     when a confirmation is refused because the moves changed, the moves it
              showed are kept in the organizer's session until the round closes: the
              page, its live part and the no-JavaScript reload all mark each move that
              differs from them, so the marks survive the page updating itself.
"""

from __future__ import annotations

from functools import partial

from django.contrib import messages
from django.contrib.messages import get_messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tournament.common.errors import Refused
from tournament.common.inputs import positive_int
from tournament.common.polling import clock_text, etag_from_version, poll_trigger, quoted_etag
from tournament.forms import CloseRoundForm
from tournament.models import Event, Phase, Round, RoundStatus
from tournament.reads.console import build_close_check
from tournament.rules.movement import Destination, decode_seating, encode_seating
from tournament.rules.table_plan import MAX_TABLE_SIZE, MIN_TABLE_SIZE
from tournament.views.access import EventRequest, event_view
from tournament.views.organizer.answers import confirmed, console_url, run_action
from tournament.views.organizer.console import clock_context
from tournament.views.organizer.records import records_panel
from tournament.writes.rounds import (
    ClockAction,
    MovesChanged,
    advance_phase,
    change_clock,
    close_round,
    undo_close_round,
)


def _phase_started(event: Event) -> str:
    if event.phase == Phase.STUDY:
        return ngettext(
            "Study started: %(minutes)s minute to read the rules.",
            "Study started: %(minutes)s minutes to read the rules.",
            event.study_minutes,
        ) % {"minutes": event.study_minutes}
    if event.phase == Phase.PRACTICE:
        if event.on_screens:
            return _("Practice started: the screens took the rules away. Silence from now on.")
        return _("Practice started: take the rule sheets away. Silence from now on.")
    if event.phase == Phase.ROUND:
        return ngettext(
            "Round %(number)s started: %(minutes)s minute.",
            "Round %(number)s started: %(minutes)s minutes.",
            event.round_minutes,
        ) % {"number": event.round_number, "minutes": event.round_minutes}
    return _("The debrief has started.")


@require_POST
@event_view()
def phase_next(request: EventRequest, event: Event) -> HttpResponse:
    expected = request.POST.get("phase") or None
    if (
        event.phase == Phase.BETWEEN_ROUNDS
        and event.planned_round() is None
        and not confirmed(request)
    ):
        # The next phase is the debrief, which makes the results final: ask first.
        return redirect("organizer:debrief", event.pk)
    return run_action(
        request,
        lambda: _phase_started(advance_phase(event=event, expected_phase=expected)),
        default=console_url(event),
    )


CLOCK_DONE = {
    ClockAction.PAUSE: gettext_lazy("Clock paused."),
    ClockAction.RESUME: gettext_lazy("Clock running again."),
    ClockAction.ADD_MINUTE: gettext_lazy("One more minute."),
    ClockAction.TIME_UP: gettext_lazy(
        "Time is up. Late games can still be reported until you close the round."
    ),
}
# At a screen event nothing is reported: the screens stop and count what they hold.
SCREENS_TIME_UP = gettext_lazy(
    "Time is up: the screens take no more cards. Each game in play counts by the tricks "
    "taken so far when you close the round."
)


@require_POST
@event_view()
def clock(request: EventRequest, event: Event, action: str) -> HttpResponse:
    if action not in CLOCK_DONE:
        messages.error(request, _("Unknown clock action."))
        return redirect(console_url(event))
    expected = request.POST.get("phase") or None

    def act() -> str:
        change_clock(event=event, action=ClockAction(action), expected_phase=expected)
        if action == ClockAction.TIME_UP and event.on_screens:
            return str(SCREENS_TIME_UP)
        return str(CLOCK_DONE[ClockAction(action)])

    return run_action(request, act, default=console_url(event))


# --- closing a round ---------------------------------------------------------------------


def running_clock_html(seconds: int, *, paused: bool) -> str:
    """The clock as clock.js counts it down, for a sentence that names the time left."""
    return format_html(
        '<span class="clock" data-clock-seconds="{}"{}><span data-clock-text>{}</span></span>',
        seconds,
        mark_safe(" data-clock-paused") if paused else "",
        clock_text(seconds),
    )


def _shown_key(event: Event, number: int) -> str:
    return f"close-shown:{event.pk}:{number}"


def _shown(request: EventRequest, event: Event, number: int) -> dict[str, Destination] | None:
    """The moves shown at the last refused confirmation (see Terms: shown), if any."""
    return decode_seating(request.session.get(_shown_key(event, number), ""))


def close_context(request: EventRequest, event: Event, round_: Round) -> dict:
    check = build_close_check(event, round_, shown=_shown(request, event, round_.number))
    number = round_.number
    clock = clock_context(event)
    return {
        "event": event,
        "round": round_,
        "preview": check.preview,
        "blocks": check.blocks,
        "disputes": check.disputes,
        "absent_notes": check.absent_notes,
        "unconfirmed_tables": check.unconfirmed_tables,
        "next_size_problems": check.next_size_problems,
        "changed": check.changed,
        "min_table_size": MIN_TABLE_SIZE,
        "max_table_size": MAX_TABLE_SIZE,
        "etag": quoted_etag(check.preview.version),
        "poll_trigger": poll_trigger(),
        **clock,
        # Closing cuts off the games in play: worth a warning, not a refusal.
        "time_left_clock": (
            running_clock_html(clock["seconds_left"], paused=clock["paused"])
            if event.has_clock and not clock["time_is_up"] and clock["seconds_left"] > 0
            else None
        ),
        "live_url": reverse("organizer:close_round_live", args=[event.pk, number]),
        "here": reverse("organizer:close_round", args=[event.pk, number]),
        # Lazy, as the records: reading the messages takes them, and the live part shows
        # none; a poll landing between a press and its redirect took the press's message.
        "site_messages": SimpleLazyObject(lambda: list(get_messages(request))),
        # Lazy: only the full page shows the Records section, so a live poll never reads
        # the backup folder.
        "records": SimpleLazyObject(partial(records_panel, event)),
    }


@require_http_methods(["GET", "POST"])
@event_view()
def close_round_page(request: EventRequest, event: Event, number: int) -> HttpResponse:
    """GET: the results and moves to check. POST: confirm them (refused only if the moves
    changed: the page then shows the new ones, the changed ones marked)."""
    round_ = get_object_or_404(Round, event=event, number=number)
    if request.method == "POST":
        form = CloseRoundForm(request.POST)
        try:
            if not form.is_valid():
                raise Refused(_("Check the moves again, then confirm."))
            close_round(
                round_=round_,
                by=request.user,
                expected_moves=form.cleaned_data["moves"],
                disputed_count_for_nobody=form.cleaned_data["disputed_ok"],
            )
        except MovesChanged as changed:
            if form.cleaned_data["shown"] is not None:
                request.session[_shown_key(event, number)] = encode_seating(
                    form.cleaned_data["shown"]
                )
            messages.error(request, changed.message)
            round_.refresh_from_db()
        except Refused as refused:
            messages.error(request, refused.message)
            round_.refresh_from_db()
        else:
            request.session.pop(_shown_key(event, number), None)
            messages.success(request, _closed_message(event, number))
            return redirect(console_url(event, "tables"))
    if round_.status != RoundStatus.OPEN:
        request.session.pop(_shown_key(event, number), None)
        messages.info(request, _("Round %(number)s is not open.") % {"number": number})
        return redirect(console_url(event))
    return render(request, "organizer/close_round.html", close_context(request, event, round_))


def _closed_message(event: Event, number: int) -> str:
    if number < event.rounds_planned:
        return _(
            "Round %(number)s closed. Round %(next)s's seating is committed: the projector "
            "shows the moves."
        ) % {"number": number, "next": number + 1}
    return _(
        "Round %(number)s closed: that was the last round. Start the debrief when you are ready."
    ) % {"number": number}


@require_GET
@event_view()
@etag_from_version(lambda request, event, number: event.version)
def close_round_live(request: EventRequest, event: Event, number: int) -> HttpResponse:
    """The close check's live part (polled; 304 while the event's version is unchanged)."""
    round_ = get_object_or_404(Round, event=event, number=number)
    return render(
        request,
        "organizer/close_round.html#live_update",
        close_context(request, event, round_),
    )


@require_POST
@event_view()
def undo_close(request: EventRequest, event: Event) -> HttpResponse:
    posted = request.POST.get("round")
    expected = positive_int(posted) if posted else None
    if posted and expected is None:
        messages.error(request, _("Choose the round whose close to undo."))
        return redirect(console_url(event, "round-panel"))

    def undo() -> str:
        reopened = undo_close_round(event=event, expected_round=expected)
        return _(
            "Round %(number)s is open again, with its time up. Correct its results, then "
            "close it again."
        ) % {"number": reopened.number}

    return run_action(request, undo, default=console_url(event))
