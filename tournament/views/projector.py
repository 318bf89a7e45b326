"""The projector screen: read-only, at the event's secret link, no sign-in.

Terms:
    stage    the polled part of the page: everything the projector shows. A poll that
             finds the event's version unchanged answers 304 after one query; a changed
             one answers the stage alone, which htmx swaps in. The projector never stops
             polling: even after the reveal the organizer can hide the rules again.
    view     ?view=ladder shows the room's ladder instead of the phase's screen.
    highlight ?highlight=climbers (or a number) on the debrief's paths screen: the players
             who climbed or fell furthest stand out (tournament.reads.projector). The poll keeps it.
"""

from __future__ import annotations

from functools import cache
from urllib.parse import urlencode

from django.http import HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import add_never_cache_headers, patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from tournament.common.languages import speak
from tournament.common.polling import etag_from_version, first_row, poll_trigger, quoted_etag
from tournament.common.qr import qr_svg
from tournament.common.requests import HtmxRequest
from tournament.models import Event, RoomSettings, looks_like_token
from tournament.reads.projector import ScreenKind, View, build_screen
from tournament.reads.room import phone_base_url, room_settings, wifi_join

NO_SCRIPT_REFRESH_SECONDS = 10


def _stage_version(view: View, version: int) -> str:
    return f"{version}-{view}"


def _polled_version(request: HtmxRequest, token: str) -> str | None:
    # Only the polled stage is conditional: a full page carries the clock's seconds left,
    # which the version does not cover, so a reload must never be answered from a cache.
    # The header, not request.htmx: an early answer comes before HtmxMiddleware.
    if request.headers.get("HX-Request") != "true":
        return None
    if not looks_like_token(token):
        return None
    found = first_row(_version_sql(), (token,))
    if found is None:
        return None
    return _stage_version(View.parse(request.GET.get("view")), found[0])


@cache
def _version_sql() -> str:
    # One prepared query (see polling.first_row); names from the model, not spelled here.
    event = Event._meta
    return (
        f'SELECT "{event.get_field("version").column}" FROM "{event.db_table}" '
        f'WHERE "{event.get_field("projector_token").column}" = %s'
    )


def _players_page(event: Event, room: RoomSettings) -> tuple[str, str]:
    """The players' own page as an absolute URL (never localhost), and its QR code."""
    url = phone_base_url(room=room) + reverse("phone:player_home", args=[event.players_token])
    return url, qr_svg(url, label=_("QR code of the players' page"))


def _answer_page(event: Event) -> tuple[str, str]:
    """The answer page any phone can open (tables.views.answers), and its QR code: a
    paper-only event's room answers there."""
    url = phone_base_url(room=room_settings(event)) + reverse(
        "phone:answer_page", args=[event.players_token]
    )
    return url, qr_svg(url, label=_("QR code of the page where phones answer"))


def _welcome(event: Event) -> dict:
    """The welcome screen's ways in: the players' page, and the hotspot's Wi-Fi code."""
    room = room_settings(event)
    return {"players_page": _players_page(event, room), "wifi": wifi_join(room)}


@require_GET
@etag_from_version(_polled_version, early=True)
def screen(request: HtmxRequest, token: str) -> HttpResponse:
    event = Event.objects.filter(projector_token=token).first()
    if event is None:
        return render(request, "projector/link_invalid.html", status=404)
    speak(request, event.language)
    view = View.parse(request.GET.get("view"))
    highlight = request.GET.get("highlight")
    shown = build_screen(event, view, highlight)
    stage_url = reverse("projector:screen", args=[token])
    ladder_url = f"{stage_url}?view={View.LADDER}"
    if highlight and view == View.STAGE:
        stage_url = f"{stage_url}?{urlencode({'highlight': highlight})}"
    context = {
        "event": event,
        "screen": shown,
        # The same quoted value the ETag header carries, for poll.js to send back.
        "etag": quoted_etag(_stage_version(view, event.version)),
        "poll_url": ladder_url if view == View.LADDER else stage_url,
        "poll_trigger": poll_trigger(),
        **(_welcome(event) if shown.kind == ScreenKind.SETUP else {"players_page": None}),
        "stage_url": stage_url,
        "ladder_url": ladder_url,
        "refresh_seconds": NO_SCRIPT_REFRESH_SECONDS,
        "answer_page": _answer_page(event)
        if event.paper_only and shown.answers is not None and shown.answers.question.answers_open
        else None,
    }
    template = "projector/screen.html#stage" if request.htmx else "projector/screen.html"
    response = render(request, template, context)
    patch_vary_headers(response, ["HX-Request"])
    add_never_cache_headers(response)
    return response
