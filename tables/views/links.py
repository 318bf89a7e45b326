"""The links phones open, and the friendly 404 for one that no longer works.

Terms:
    table link    /t/<token>/, printed as the QR code on a table's tent card; the token
                  is the only credential (no sign-in, no session).
    players link  /t/me/<players_token>/, where a player picks their name to follow
                  their own table, round and moves.
    invalid link  a rotated, mistyped or mangled token: a friendly 404 that says what to
                  do, never a server error and never a hint of another table.

Each phone view takes the table (or event) its link names through one of the decorators
here, so every view answers a bad link the same way, and speaks the phone's language
(tournament.common.languages).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.http import HttpResponse
from django.shortcuts import render

from tables.reads import prepared
from tournament.common.languages import (
    PHONE_LANGUAGE_COOKIE,
    known_language,
    phone_language,
    speak,
)
from tournament.common.requests import HtmxRequest
from tournament.models import Event, looks_like_token

TableView = Callable[..., HttpResponse]


def link_invalid(request: HtmxRequest, *, for_player: bool = False) -> HttpResponse:
    """The friendly 404 for a rotated or mistyped link. A poll or a tap from a page that
    was open before the link changed reloads the whole page, so the phone shows it.
    A phone that picked its own language keeps it here too. A report sent to it is
    refused for a reason the page gives (tables.views.report_answers: a phone never retries it)."""
    if own := known_language(request.COOKIES.get(PHONE_LANGUAGE_COOKIE)):
        speak(request, own)
    response = render(request, "phone/link_invalid.html", {"for_player": for_player}, status=404)
    if request.htmx:
        response["HX-Refresh"] = "true"
    if request.method == "POST":
        response["X-Report-Refused"] = "1"
    return response


def table_from_link(view: TableView) -> TableView:
    """Call ``view(request, table)`` with the table the link's token names (its event
    loaded too), or answer the friendly 404."""

    @wraps(view)
    def wrapped(request: HtmxRequest, token: str, *args, **kwargs) -> HttpResponse:
        table = prepared.table_by_token(token) if looks_like_token(token) else None
        if table is None:
            return link_invalid(request)
        speak(
            request,
            phone_language(
                request, event_language=table.event.language, table_language=table.sheet_language
            ),
        )
        return view(request, table, *args, **kwargs)

    return wrapped


def event_from_players_link(view: TableView) -> TableView:
    """Call ``view(request, event)`` with the event a players link names, or answer the
    friendly 404 that sends the player back to the QR code."""

    @wraps(view)
    def wrapped(request: HtmxRequest, players_token: str, *args, **kwargs) -> HttpResponse:
        event = Event.objects.for_players_token(players_token).first()
        if event is None:
            return link_invalid(request, for_player=True)
        speak(request, phone_language(request, event_language=event.language))
        return view(request, event, *args, **kwargs)

    return wrapped
