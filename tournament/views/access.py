"""Who may reach an event's console pages: the one decorator every organizer view that is
about one event wears, and the 403 answers its refusals get.

Terms:
    event view   a view whose URL names an event (`<int:pk>/...`), written as
                 ``@event_view(...) def view(request, event, ...)``: the decorator signs the
                 user in (login_required), loads the event, checks the role and passes the
                 event in place of the URL's pk. No console view loads its event by hand.
    reach        an organizer reaches their own events, a superuser every event, a
                 co-facilitator (tournament.writes.cofacilitators) the one event they were
                 invited to while the invitation is not revoked. Any other event answers 404,
                 with no hint that it exists.
    may          the least capability the view needs ("view", "observe", "assist",
                 "organize"); by default "organize" for a POST and "view" for a GET. A
                 co-facilitator whose role lacks it is refused (NotAllowed) before the view
                 runs; a revoked one is told so on their next request (InvitationRevoked).
    read-only    a finished event (tournament.writes.finishing) changes no more: a POST to it
                 raises EventIsFinished before the view does anything, so a new action is
                 guarded without a line of its own. The few POSTs a finished event still
                 takes (reopen, archive, delete, back up, step the debrief screens...) say
                 so with even_when_finished=True.
    organizer only
                 a page co-facilitators never reach, not even to be refused: the table kit
                 carries every table's phone link (anyone holding one may report there), so
                 for them it answers 404 as another organizer's event does.
    handler403   permission_denied (tournament.urls names it): a change to a finished event,
                 or a POST the role lacks, goes back to the page it came from with the reason,
                 like any refused action; a GET the role lacks, and a revoked invitation, get
                 the refusal page.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views import defaults

from tournament.common.requests import SignedInRequest
from tournament.models import Event
from tournament.views.organizer.answers import back_to, console_url
from tournament.writes.cofacilitators import (
    ORGANIZER_ACCESS,
    Access,
    access_for,
    revoked_invitation,
)


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


class EventRequest(SignedInRequest):
    """A request that event_view let through, with the user's access to its event (for the
    type checker only, see tournament.common.requests)."""

    event_access: Access


def _reached_event(request: EventRequest, pk: int, *, organizer_only: bool) -> Event:
    """The event with pk if this user reaches it (see Terms: reach), with their access as
    `request.event_access`; else 404 or InvitationRevoked."""
    user = request.user
    if organizer_only:
        event = Event.objects.visible_to(user).filter(pk=pk).first()
        if event is None:
            raise Http404
        access = ORGANIZER_ACCESS
    else:
        event = Event.objects.reachable_by(user).filter(pk=pk).first()
        if event is None:
            if revoked_invitation(user) is not None:
                raise InvitationRevoked
            raise Http404
        found = access_for(user, event)
        if found is None:  # revoked between the two reads
            raise InvitationRevoked
        access = found
    request.event_access = access
    return event


def event_view(
    *, may: str | None = None, even_when_finished: bool = False, organizer_only: bool = False
) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """Make a view of one event (see Terms): signed in, the event reached and the role
    checked before the view runs, which receives the event instead of the URL's pk.

    `may` is the least capability the view needs (default: "organize" for a POST, "view"
    for a GET); `even_when_finished` lets a POST change a finished event; `organizer_only`
    hides the page from co-facilitators (404).
    """

    def decorator(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def wrapped(request: EventRequest, pk: int, *args, **kwargs) -> HttpResponse:
            event = _reached_event(request, pk, organizer_only=organizer_only)
            needed = may or ("organize" if request.method == "POST" else "view")
            if not request.event_access.allows(needed):
                raise NotAllowed(event, request.event_access)
            if request.method == "POST" and event.is_finished and not even_when_finished:
                raise EventIsFinished(event)
            return view(request, event, *args, **kwargs)

        return login_required(wrapped)

    return decorator


def access_context(request: HttpRequest) -> dict:
    """Context processor: what the signed-in user may do to the event the view reached
    (`access`; organize on pages that reach no event, such as the events list)."""
    return {"access": getattr(request, "event_access", ORGANIZER_ACCESS)}


def visible_version(request: HttpRequest, pk: int, *args, **kwargs) -> int | None:
    """Event.version for polling (one query), None when the event is not this user's.

    Polled views put it outside event_view, so an unchanged page answers 304 before the
    event is loaded."""
    if not request.user.is_authenticated:
        return None
    return (
        Event.objects.reachable_by(request.user)
        .filter(pk=pk)
        .values_list("version", flat=True)
        .first()
    )


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    """handler403 (see Terms): a change to a finished event is refused like any other action
    (back to the page it came from, with the reason); any other 403 gets Django's page."""
    if isinstance(exception, EventIsFinished):
        messages.error(request, str(exception))  # the event's finished_refusal
        return back_to(request, console_url(exception.event))
    if isinstance(exception, NotAllowed):
        if request.method != "POST":
            return render(request, "organizer/refused.html", {"reason": str(exception)}, status=403)
        messages.error(request, str(exception))
        return back_to(request, console_url(exception.event))
    if isinstance(exception, InvitationRevoked):
        return render(request, "organizer/refused.html", {"reason": str(exception)}, status=403)
    return defaults.permission_denied(request, exception)
