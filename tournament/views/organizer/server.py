"""The console's "Stop the server" button: the organizer, at the laptop, stops the server at
the end of the event without a terminal.

Terms:
    may stop     the server is stoppable (settings.STOPPABLE_SERVER_PID: started by `serve`
                 on a laptop, not hosted; tournament.serving.server_stop), the request comes
                 from the laptop itself (loopback), and the signed-in user is the account
                 `serve` signs in (signin.DEFAULT_ORGANIZER, made by ensure_organizer) or a
                 superuser: another organizer account on the same laptop, or a
                 co-facilitator's, may not stop the room. Only then the console's footer
                 shows the button; any other request to these URLs answers 404, as a page
                 that does not exist.
    confirm      the button's POST answers a page that asks once more and says what
                 stopping does (phones and the projector stop updating; the data is kept),
                 with a second button, and a way back. Plain forms, no JavaScript dialog.
    stop         the second button's POST renders the "stopped" page (where the data is,
                 how to start again), then asks the server to stop a moment later
                 (server_stop.stop_soon), so the page reaches the browser first. The
                 server finishes the requests it is serving before it stops.
"""

from __future__ import annotations

import sys

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from tournament.serving import server_stop
from tournament.writes.cofacilitators import invitation_of
from tournament.writes.signin import DEFAULT_ORGANIZER


def may_stop_server(request: HttpRequest) -> bool:
    """Whether this request may stop the server (see Terms: may stop). No query unless
    the server is stoppable and the request comes from the laptop."""
    return (
        settings.STOPPABLE_SERVER_PID is not None
        and server_stop.is_loopback(request.META.get("REMOTE_ADDR", ""))
        and request.user.is_authenticated
        and _is_the_servers_account(request.user)
        and invitation_of(request.user) is None
    )


def _is_the_servers_account(user) -> bool:
    # `serve` and the app's window always sign in ensure_organizer()'s account.
    return user.is_superuser or user.get_username() == DEFAULT_ORGANIZER


def stop_context(request: HttpRequest) -> dict:
    """Context processor: `may_stop_server` for the console's footer, worked out only when a
    page shows the footer."""
    return {"may_stop_server": SimpleLazyObject(lambda: may_stop_server(request))}


def _refuse_unless_allowed(request: HttpRequest) -> None:
    if not may_stop_server(request):
        raise Http404


def _started_as() -> str:
    """How the organizer starts this server again: the double-click "app" (a bundle), the
    "installed" `fivetricks` command, or `make run` in a "checkout"."""
    if getattr(sys, "frozen", False):
        return "app"
    return "installed" if settings.INSTALLED_PACKAGE else "checkout"


@require_POST
def stop_server_confirm(request: HttpRequest) -> HttpResponse:
    """Ask once more before stopping (see Terms: confirm); "Keep it running" goes back to
    the console page the button was pressed on."""
    _refuse_unless_allowed(request)
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(back, allowed_hosts=None):
        back = reverse("organizer:events")
    return render(request, "organizer/server_stop_confirm.html", {"back": back})


@require_POST
def stop_server(request: HttpRequest) -> HttpResponse:
    """Say the server stopped and where the data is, then stop it (see Terms: stop)."""
    _refuse_unless_allowed(request)
    response = render(
        request,
        "organizer/server_stopped.html",
        {
            "database_file": str(settings.DATABASES["default"]["NAME"]),
            "backup_folder": str(settings.BACKUP_DIR),
            "started_as": _started_as(),
        },
    )
    pid = settings.STOPPABLE_SERVER_PID
    if pid is not None:  # always: _refuse_unless_allowed checked it
        server_stop.stop_soon(pid)
    return response
