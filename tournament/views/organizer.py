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

An organizer sees only their own events (another organizer's answer 404); a superuser
sees every event.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods
from django_htmx.http import replace_url

from tournament.common.errors import Refused
from tournament.forms import EventForm
from tournament.models import Event, PlayerStatus
from tournament.rounds import delete_event


def owned_event(request: HttpRequest, pk: int) -> Event:
    """The event if this organizer may run it; 404 otherwise (no hint that it exists)."""
    return get_object_or_404(Event.objects.visible_to(request.user), pk=pk)


def visible_version(request: HttpRequest, pk: int, *args, **kwargs) -> int | None:
    """Event.version for polling (one query), None when the event is not this user's."""
    if not request.user.is_authenticated:
        return None
    return (
        Event.objects.visible_to(request.user)
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
    events = (
        Event.objects.visible_to(request.user)
        .select_related("owner")
        .annotate(player_count=Count("players", filter=~Q(players__status=PlayerStatus.REMOVED)))
    )
    return render(
        request,
        "organizer/event_list.html",
        {"events": events, "show_owner": request.user.is_superuser},
    )


@require_http_methods(["GET", "POST"])
@login_required
def event_new(request: HttpRequest) -> HttpResponse:
    form = EventForm(request.POST or None)
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
    event = owned_event(request, pk)
    form = EventForm(request.POST or None, instance=event)
    if request.method == "POST":
        if form.is_valid():
            event = form.save(commit=False)
            event.save_and_bump(list(form.changed_data) or ["name"])
            messages.success(request, _("Settings saved."))
            return redirect(console_url(event))
        return render(
            request,
            "organizer/event_settings.html",
            {"event": Event.objects.get(pk=pk), "form": form},
            status=form_error_status(request),
        )
    return render(request, "organizer/event_settings.html", {"event": event, "form": form})


@require_http_methods(["GET", "POST"])
@login_required
def event_delete(request: HttpRequest, pk: int) -> HttpResponse:
    event = owned_event(request, pk)
    if request.method == "POST":
        typed = " ".join(request.POST.get("name", "").split())
        if typed != event.name:
            messages.error(request, _("Type the event's name exactly to delete it."))
            return render(
                request,
                "organizer/event_delete.html",
                {"event": event, "typed": request.POST.get("name", "")},
                status=form_error_status(request),
            )
        delete_event(event=event)
        messages.success(request, _("“%(name)s” was deleted.") % {"name": event.name})
        return redirect("organizer:events")
    return render(request, "organizer/event_delete.html", {"event": event})
