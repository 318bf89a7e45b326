"""A player's silent channel at a screen table: a stroke on the table's pad (or the pad
cleared) and a gesture beside their seat, sent from the page's outbox like a card
(static/js/screen.js and static/js/pad.js).

Terms:
    action   as in tables.views.screen: answered ``X-Action-Stored`` once stored (or
             stored before), or a 4xx with ``X-Action-Refused`` and the reason, never
             retried (409; 429 past a person's pace, tables.writes.silent_channel).
             With the live channel open the answer is empty: the channel brings
             the pad and the gesture to every screen at the table, this one too.
    version  a stored action's answer says the table's version it was stored at
             (``X-Table-Version``, tables.writes.silent_channel, Terms: table version): the
             drawing screen takes its own pending stroke away once the table's state it
             shows is that recent, so no key of the player's ever travels to the table.

Nothing here reads words: the pad takes points and an ink, a gesture one of its names
(tables.rules.silent_channel).
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from tables.forms import GestureForm, StrokeForm
from tables.views.screen import (
    LIVE_PARTIAL,
    PUSHED_HEADER,
    REFUSED_HEADER,
    STORED_HEADER,
    VERSION_HEADER,
    live_context,
    player_from_link,
)
from tables.writes.silent_channel import Drawn, TooFast, draw_stroke, make_gesture
from tournament.common.busy import Busy, busy_answer, patience
from tournament.common.errors import Refused
from tournament.common.phone_ids import phone_id
from tournament.common.requests import HtmxRequest
from tournament.models import Player


def _answer(
    request: HtmxRequest,
    player: Player,
    *,
    refused: str = "",
    status: int = 200,
    drawn: Drawn | None = None,
):
    if not request.htmx:
        if refused:
            messages.error(request, refused)
        return HttpResponseRedirect(reverse("phone:screen", args=[player.token]))
    header = REFUSED_HEADER if refused else STORED_HEADER
    if not refused and request.headers.get(PUSHED_HEADER) == "1":
        response = HttpResponse(status=204)
    else:
        notice = ("error", refused) if refused else None
        response = render(
            request, LIVE_PARTIAL, live_context(request, player, notice=notice), status=status
        )
    response[header] = "1"
    if drawn is not None and drawn.table_version is not None:
        response[VERSION_HEADER] = str(drawn.table_version)
    return response


def _refused_input(request: HtmxRequest, player: Player) -> HttpResponse:
    return _answer(
        request,
        player,
        refused=_("The pad and the gestures take drawings and pictures only."),
        status=400,
    )


def _act(
    request: HtmxRequest,
    player: Player,
    form: StrokeForm | GestureForm,
    write: Callable[..., Drawn],
) -> HttpResponse:
    """Check the form, call ``write(form, device)``, answer (see Terms: action)."""
    if not form.is_valid():
        return _refused_input(request, player)
    try:
        with patience():
            drawn = write(form, phone_id(request) or "")
    except Busy:
        return busy_answer(request, page_url=reverse("phone:screen", args=[player.token]))
    except TooFast as refusal:
        # Past a person's pace (tables.writes.silent_channel, Terms: pace): dropped by
        # the screen, never retried; a person sends the next one a moment later.
        response = _answer(request, player, refused=refusal.message, status=429)
        response["Retry-After"] = "1"
        return response
    except Refused as refusal:
        return _answer(request, player, refused=refusal.message, status=409)
    return _answer(request, player, drawn=drawn)


@csrf_exempt  # the personal link in the URL is the credential; nothing rides on a cookie
@require_POST
@player_from_link
def draw(request: HtmxRequest, player: Player) -> HttpResponse:
    def write(form: StrokeForm, device: str) -> Drawn:
        return draw_stroke(
            player=player,
            kind=form.cleaned_data["kind"],
            points=form.cleaned_data["points"],
            client_key=form.cleaned_data["key"],
            device=device,
            pad=form.shown_pad(),
        )

    return _act(request, player, StrokeForm(request.POST), write)


@csrf_exempt  # as draw
@require_POST
@player_from_link
def gesture(request: HtmxRequest, player: Player) -> HttpResponse:
    def write(form: GestureForm, device: str) -> Drawn:
        kind, card = form.kind_and_card()
        return make_gesture(
            player=player,
            kind=kind,
            card=card,
            client_key=form.cleaned_data["key"],
            device=device,
            pad=form.shown_pad(),
        )

    return _act(request, player, GestureForm(request.POST), write)
