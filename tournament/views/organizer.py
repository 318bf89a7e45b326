"""Organizer console: the events list, a new event, an event's settings, and the helpers
every console view shares.

Terms:
    console    the signed-in pages that run one event (tournament.views.organizer_console).
    action     a POST that changes the event through a bridge function; a refusal
               (tournament.common.errors.Refused) becomes an error message and changes nothing.
    section    a part of the console page with an id (#roster, #plan ...); after an action
               without JavaScript the browser comes back to the section it was used in.
    page URL   the GET-able address of the page a form is on. Action URLs take only POST,
               so they must never be left in the address bar: a reload would fail.
    read-only  a finished event (tournament.writes.finishing) changes no more. The guard is here,
               in owned_event, the one way every console view gets its event: a POST to a
               finished event raises EventIsFinished before the view does anything, and
               handler403 (tournament.urls) answers it like any refused action, back to
               the page with Event.finished_refusal's words. A new action is guarded
               without a line of its own; the few POSTs a finished event still takes
               (reopen, archive, delete, back up, step the debrief screens) say so with
               even_when_finished=True.

An organizer sees only their own events (another organizer's answer 404); a superuser
sees every event. A co-facilitator (tournament.writes.cofacilitators) reaches the one event they
were invited to, with a capability: owned_event's `may` names the least a view needs
("view", "observe", "assist", "organize"; a POST needs "organize" unless it says less),
and a request that needs more is refused (NotAllowed) before the view runs. A revoked
co-facilitator is refused on their next request.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views import defaults
from django.views.decorators.http import require_GET, require_http_methods
from django_htmx.http import replace_url

from tables.models import Game
from tournament.common.errors import Refused
from tournament.forms import EventForm
from tournament.models import Event, PlayerStatus, RoundStatus
from tournament.writes.cofacilitators import (
    ORGANIZER_ACCESS,
    Access,
    access_for,
    invitation_of,
    revoked_invitation,
)
from tournament.writes.event_settings import save_event_settings
from tournament.writes.finishing import archive_event
from tournament.writes.rounds import delete_event


class EventIsFinished(PermissionDenied):
    """A POST that would change a finished event (see Terms: read-only)."""

    def __init__(self, event: Event) -> None:
        super().__init__(event.finished_refusal)
        self.event = event


class NotAllowed(PermissionDenied):
    """A request that needs more than this co-facilitator's role allows."""

    def __init__(self, event: Event, access: Access) -> None:
        super().__init__(
            _("As %(role)s you cannot do this: ask the organizer.") % {"role": access.role_label}
        )
        self.event = event


class InvitationRevoked(PermissionDenied):
    def __init__(self) -> None:
        super().__init__(_("Your invitation to help run this event was revoked."))


def owned_event(
    request: HttpRequest, pk: int, *, may: str | None = None, even_when_finished: bool = False
) -> Event:
    """The event if this user may reach it, with their access as `event.access`; 404
    otherwise (no hint that it exists).

    `may` is the least capability the view needs (see the module's docstring): by
    default "organize" for a POST, "view" for a GET. A POST to a finished event raises
    EventIsFinished unless the view says it is one of the few a finished event takes
    (see Terms: read-only).
    """
    user = request.user
    event = Event.objects.reachable_by(user).filter(pk=pk).first()
    if event is None:
        if revoked_invitation(user) is not None:
            raise InvitationRevoked
        raise Http404
    access = access_for(user, event)
    if access is None:  # revoked between the two reads
        raise InvitationRevoked
    event.access = access
    request.event_access = access
    needed = may or ("organize" if request.method == "POST" else "view")
    if not access.allows(needed):
        raise NotAllowed(event, access)
    if request.method == "POST" and event.is_finished and not even_when_finished:
        raise EventIsFinished(event)
    return event


def access_context(request: HttpRequest) -> dict:
    """Context processor: what the signed-in user may do to the event the view reached
    (`access`; organize on pages that reach no event, such as the events list)."""
    return {"access": getattr(request, "event_access", ORGANIZER_ACCESS)}


def _cofacilitator_elsewhere(request: HttpRequest) -> HttpResponse | None:
    """A co-facilitator's account has no events list and makes no events: it goes to its
    one event, or is told it was revoked."""
    invitation = invitation_of(request.user)
    if invitation is None:
        return None
    if invitation.is_revoked:
        raise InvitationRevoked
    return redirect(console_url(invitation.event_id))


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """handler403: a change to a finished event is refused like any other action (back to
    the page it came from, with the reason); any other 403 gets Django's page."""
    if isinstance(exception, EventIsFinished):
        messages.error(request, exception.event.finished_refusal)
        return back_to(request, console_url(exception.event))
    if isinstance(exception, NotAllowed):
        if request.method != "POST":
            return render(request, "organizer/refused.html", {"reason": str(exception)}, status=403)
        messages.error(request, str(exception))
        return back_to(request, console_url(exception.event))
    if isinstance(exception, InvitationRevoked):
        return render(request, "organizer/refused.html", {"reason": str(exception)}, status=403)
    return defaults.permission_denied(request, exception)


def visible_version(request: HttpRequest, pk: int, *args, **kwargs) -> int | None:
    """Event.version for polling (one query), None when the event is not this user's."""
    if not request.user.is_authenticated:
        return None
    return (
        Event.objects.reachable_by(request.user)
        .filter(pk=pk)
        .values_list("version", flat=True)
        .first()
    )


def console_url(event: Event | int, section: str = "") -> str:
    """The console of an event (or of an event's pk), at one of its sections."""
    url = reverse("organizer:event", args=[getattr(event, "pk", event)])
    return f"{url}#{section}" if section else url


def back_to(request: HttpRequest, default: str) -> HttpResponseRedirect:
    """Back to the page the form came from (its `next` field), if it is one of ours."""
    target = request.POST.get("next") or ""
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return HttpResponseRedirect(target)
    return HttpResponseRedirect(default)


def run_action(
    request: HttpRequest, action: Callable[[], str | None], *, default: str
) -> HttpResponseRedirect:
    """Do one change; show its success message or the reason it was refused."""
    try:
        done = action()
    except Refused as refused:
        messages.error(request, refused.message)
    else:
        if done:
            messages.success(request, done)
    return back_to(request, default)


def form_error_status(request: HttpRequest) -> int:
    # htmx swaps only 2xx answers; without it, 400 tells the browser the form was refused.
    return 200 if request.htmx else 400


def refused_form(
    request: HttpRequest, template: str, context: dict, *, page_url: str
) -> HttpResponse:
    """The page again, its form showing the errors and what was typed.

    A boosted form puts the URL it posted to in the address bar; for an action URL a
    reload would then fail, so htmx is told to show the page's own URL instead.
    """
    response = render(request, template, context, status=form_error_status(request))
    if request.htmx:
        replace_url(response, page_url)
    return response


def get_goes_to(page_url: Callable[..., str]) -> Callable:
    """Let a POST-only action's URL answer GET with a redirect to the page its form is on.

    Without JavaScript a refused form is shown at the action's URL; Enter in the address
    bar (or a bookmark) then lands on the page instead of an error. page_url receives the
    URL's arguments (pk, player_id ...).
    """

    def decorator(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
            if request.method == "GET":
                return HttpResponseRedirect(page_url(*args, **kwargs))
            return view(request, *args, **kwargs)

        return require_http_methods(["GET", "POST"])(wrapped)

    return decorator


# --- events ------------------------------------------------------------------------------


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
def event_new(request: HttpRequest) -> HttpResponse:
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
@login_required
def event_settings(request: HttpRequest, pk: int) -> HttpResponse:
    event = owned_event(request, pk, may="organize")
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
            {"event": Event.objects.get(pk=pk), "form": form},
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
@login_required
def event_delete(request: HttpRequest, pk: int) -> HttpResponse:
    """Delete an event once its name is typed; the page says what goes with it."""
    event = owned_event(request, pk, may="organize", even_when_finished=True)
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
@login_required
def event_archive(request: HttpRequest, pk: int) -> HttpResponse:
    """Put an event under "Archived" in the events list (archived=1), or back (0)."""
    event = owned_event(request, pk, even_when_finished=True)
    archived = request.POST.get("archived", "1") == "1"

    def archive() -> str:
        archive_event(event=event, archived=archived)
        if archived:
            return _("“%(name)s” is archived: find it under Archived.") % {"name": event.name}
        return _("“%(name)s” is back in your events.") % {"name": event.name}

    return run_action(request, archive, default=reverse("organizer:events"))
