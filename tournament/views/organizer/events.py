"""An organizer's events: the events list, a new event, an event's settings, and the steps
of its life that are not play: archive, delete, finish and reopen.

Terms:
    archived   put away under "Archived" in the events list; nothing else changes.
    finished   closed after its debrief: read-only until reopened
               (tournament.writes.finishing; the guard is tournament.views.access).
    confirmed  finishing and reopening ask first: the console asks in the page
               (organizer/_confirm.html) and its "Yes" posts `confirmed`; a post without it
               is sent to the page (GET), which asks instead.

An organizer sees only their own events; a co-facilitator's account has no events list
and makes no events (it goes to its one event).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.messages import get_messages
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from tables.models import KEPT_FOR_THE_ORGANIZER, Game, GameReport, ReportState
from tournament.common.requests import HtmxRequest
from tournament.forms import EventForm
from tournament.models import Event, Phase, PlayerStatus, RoundStatus
from tournament.views.access import InvitationRevoked, event_view
from tournament.views.organizer.answers import (
    confirmed,
    console_url,
    form_error_status,
    get_goes_to,
    run_action,
)
from tournament.writes.cofacilitators import invitation_of
from tournament.writes.event_settings import save_event_settings
from tournament.writes.finishing import archive_event, finish_event, reopen_event
from tournament.writes.rounds import delete_event


def _cofacilitator_elsewhere(request: HttpRequest) -> HttpResponse | None:
    """A co-facilitator's account has no events list and makes no events: it goes to its
    one event, or is told it was revoked."""
    invitation = invitation_of(request.user)
    if invitation is None:
        return None
    if invitation.is_revoked:
        raise InvitationRevoked
    return redirect(console_url(invitation.event_id))


@require_GET
@login_required
def event_list(request: HttpRequest) -> HttpResponse:
    """The organizer's events, newest first: the archived ones apart, under "Archived"."""
    if (elsewhere := _cofacilitator_elsewhere(request)) is not None:
        return elsewhere
    events = list(
        Event.objects.visible_to(request.user)
        .select_related("owner")
        .annotate(player_count=Count("players", filter=~Q(players__status=PlayerStatus.REMOVED)))
    )
    return render(
        request,
        "organizer/event_list.html",
        {
            "events": [event for event in events if not event.is_archived],
            "archived": [event for event in events if event.is_archived],
            "show_owner": request.user.is_superuser,
        },
    )


@require_http_methods(["GET", "POST"])
@login_required
def event_new(request: HtmxRequest) -> HttpResponse:
    if (elsewhere := _cofacilitator_elsewhere(request)) is not None:
        return elsewhere
    # A new event speaks the console's language until the organizer picks another.
    form = EventForm(request.POST or None, initial={"language": get_language()})
    if request.method == "POST":
        if form.is_valid():
            form.instance.owner = request.user
            event = form.save()
            messages.success(request, _("Event created. Next: add the players' names."))
            return redirect(console_url(event, "roster"))
        return render(
            request, "organizer/event_new.html", {"form": form}, status=form_error_status(request)
        )
    return render(request, "organizer/event_new.html", {"form": form})


@require_http_methods(["GET", "POST"])
@event_view(may="organize")
def event_settings(request: HtmxRequest, event: Event) -> HttpResponse:
    form = EventForm(request.POST or None, instance=event)
    if request.method == "POST":
        if form.is_valid():
            save_event_settings(
                event=form.save(commit=False), fields=list(form.changed_data) or ["name"]
            )
            messages.success(request, _("Settings saved."))
            return redirect(console_url(event))
        return render(
            request,
            "organizer/event_settings.html",
            # The form wrote what was typed onto `event`: the page's title reads it afresh.
            {"event": Event.objects.get(pk=event.pk), "form": form},
            status=form_error_status(request),
        )
    return render(request, "organizer/event_settings.html", {"event": event, "form": form})


def _what_delete_loses(event: Event) -> dict[str, int]:
    """What deleting an event throws away, for its confirmation page: three counts."""
    return {
        "players": event.players.on_roster().count(),
        "rounds": event.rounds.exclude(status=RoundStatus.PLANNED).count(),
        "games": Game.objects.filter(round__event=event).count(),
    }


@require_http_methods(["GET", "POST"])
@event_view(may="organize", even_when_finished=True)
def event_delete(request: HtmxRequest, event: Event) -> HttpResponse:
    """Delete an event once its name is typed; the page says what goes with it."""
    context = {"event": event, "loses": _what_delete_loses(event)}
    if request.method == "POST":
        typed = " ".join(request.POST.get("name", "").split())
        if typed != event.name:
            messages.error(request, _("Type the event's name exactly to delete it."))
            return render(
                request,
                "organizer/event_delete.html",
                {**context, "typed": request.POST.get("name", "")},
                status=form_error_status(request),
            )
        delete_event(event=event)
        messages.success(request, _("“%(name)s” was deleted.") % {"name": event.name})
        return redirect("organizer:events")
    return render(request, "organizer/event_delete.html", context)


@get_goes_to(lambda pk: reverse("organizer:events"))
@event_view(even_when_finished=True)
def event_archive(request: HttpRequest, event: Event) -> HttpResponse:
    """Put an event under "Archived" in the events list (archived=1), or back (0)."""
    archived = request.POST.get("archived", "1") == "1"

    def archive() -> str:
        archive_event(event=event, archived=archived)
        if archived:
            return _("“%(name)s” is archived: find it under Archived.") % {"name": event.name}
        return _("“%(name)s” is back in your events.") % {"name": event.name}

    return run_action(request, archive, default=reverse("organizer:events"))


# --- finish and reopen -------------------------------------------------------------------


def _waiting_counts(event: Event) -> dict[str, int]:
    """How many reports of each kind the organizer has still to accept or drop."""
    counts = dict(
        GameReport.objects.filter(table__event=event, state__in=KEPT_FOR_THE_ORGANIZER)
        .values("state")
        .annotate(count=Count("pk"))
        .values_list("state", "count")
    )
    return {
        "late_count": counts.get(ReportState.LATE, 0),
        "held_count": counts.get(ReportState.HELD, 0),
    }


@require_http_methods(["GET", "POST"])
@event_view()
def finish(request: HttpRequest, event: Event) -> HttpResponse:
    """Finish the event once confirmed (see Terms): it becomes read-only."""
    if request.method == "POST" and confirmed(request):

        def done() -> str:
            finish_event(event=event)
            return _(
                "The event is finished and read-only. Its debrief screens, report and "
                "downloads stay here."
            )

        return run_action(request, done, default=console_url(event))
    if request.method == "POST":
        return redirect("organizer:finish", event.pk)
    if event.is_finished:
        messages.info(request, _("The event is already finished."))
        return redirect(console_url(event))
    if event.phase != Phase.DEBRIEF:
        messages.error(
            request, _("An event is finished after its debrief: start the debrief first.")
        )
        return redirect(console_url(event))
    return render(
        request,
        "organizer/finish.html",
        {
            "event": event,
            "reopen": False,
            # Late and held reports wait alike, but each is told in its own words.
            **_waiting_counts(event),
            "site_messages": list(get_messages(request)),
        },
    )


@require_http_methods(["GET", "POST"])
@event_view(even_when_finished=True)
def reopen(request: HttpRequest, event: Event) -> HttpResponse:
    """Reopen a finished event once confirmed: it can change again."""
    if request.method == "POST" and confirmed(request):

        def done() -> str:
            reopen_event(event=event)
            return _("The event is open again: results, roster and settings can change.")

        return run_action(request, done, default=console_url(event))
    if request.method == "POST":
        return redirect("organizer:reopen", event.pk)
    if not event.is_finished:
        messages.info(request, _("The event is not finished: there is nothing to reopen."))
        return redirect(console_url(event))
    return render(
        request,
        "organizer/finish.html",
        {"event": event, "reopen": True, "site_messages": list(get_messages(request))},
    )
