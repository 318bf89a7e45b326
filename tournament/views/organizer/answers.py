"""How the console's views answer: an action goes back where it came from with its message,
a refused form comes back with what was typed.

Terms:
    action     a POST that changes the event through a bridge function; a refusal
               (tournament.common.errors.Refused) becomes an error message and changes
               nothing. It is answered with a redirect back to where it came from (the `next`
               field, else the console section it belongs to).
    section    a part of the console page with an id (#roster, #plan ...); after an action
               without JavaScript the browser comes back to the section it was used in.
    page URL   the GET-able address of the page a form is on. Action URLs take only POST,
               so they must never be left in the address bar: a reload would fail.
    confirmed  the organizer ticked "do it anyway" (a variant after the players have seen
               their rules) or agreed to a step that cannot be undone (the debrief, finishing):
               the browser's confirm dialog, or a confirmation page without JavaScript.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods
from django_htmx.http import replace_url

from tournament.common.errors import Refused
from tournament.common.requests import HtmxRequest
from tournament.models import Event


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


def confirmed(request: HttpRequest) -> bool:
    """Whether the POST says the organizer confirmed (see Terms)."""
    return request.POST.get("confirmed") in ("1", "on", "true")


def form_error_status(request: HtmxRequest) -> int:
    # htmx swaps only 2xx answers; without it, 400 tells the browser the form was refused.
    return 200 if request.htmx else 400


def refused_form(
    request: HtmxRequest, template: str, context: dict, *, page_url: str
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
