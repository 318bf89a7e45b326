"""Phones answer the debrief's question: from a table's page, the players' page, the
event's answer page (the projector's QR code at a paper-only event), or a player's own
screen at a screen event (tables.views.screen), which shows the question as the projector
does, for players who have no projector to look at.

Terms:
    asked        the question the projector shows, while it takes answers
                 (tables.reads.debrief_answers.PhoneQuestion).
    answer page  /t/me/<players_token>/answer/: the asked question alone, for any phone in
                 the room, with no name to pick. Like the players' page it carries no
                 table's token, so it can never lead to a table's rules.
    own screen   /t/p/<token>/answer/: the answer of a player's personal link. Its source
                 limit is one person's devices (see tables.writes.debrief_answers: Terms:
                 source limit).
    phone id     the ``ft_phone`` cookie (tournament.common.phone_ids): one answer per phone and
                 question. Answers are anonymous: the id only finds this phone's own answer.
                 It must come from a page the server served (the cookie is signed): an
                 answer without it, or with a made-up one, is refused and stored nowhere;
                 the refusal hands out an id, so sending again from that page works.

An answer posted with htmx gets the page's live part back, its notice marked
data-answer-notice (phone.js reads it out through #announce and keeps the focus on the
control that sent it); without JavaScript the post redirects to the page, which shows the
notice. A refused answer (the question closed or moved on, an empty word) says why, and
the page shows the question as it is now. Not protected by CSRF, as reports are not: the
link in the URL is the only credential (tables.views.phone).
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from tables.models import Table
from tables.reads.debrief_answers import answer_words, phone_question
from tables.reads.screens import player_screen
from tables.views.links import event_from_players_link, table_from_link
from tables.views.phone_page import LIVE_PARTIAL, render_table_screen
from tables.views.player import picked_player, player_page_context
from tables.views.screen import LIVE_PARTIAL as SCREEN_LIVE_PARTIAL
from tables.views.screen import live_context, player_from_link
from tables.writes.debrief_answers import (
    SPARE_PHONES,
    answer_question,
    answer_source,
    players_source_limit,
    table_source_limit,
)
from tournament.common.errors import Refused
from tournament.common.inputs import positive_int
from tournament.common.phone_ids import keep_phone_id, new_phone_id, phone_id
from tournament.common.polling import etag_from_version, poll_trigger, quoted_etag
from tournament.common.requests import HtmxRequest, client_address
from tournament.models import DebriefAnswer, Event, Player
from tournament.rules.debrief_questions import ANSWER_MAX_LENGTH

ANSWER_PAGE = "phone/answer.html"
# What a post may carry at most: a few characters over the limit still get the reason.
POSTED_TEXT_MAX = 4 * ANSWER_MAX_LENGTH


def answer_url_for_table(table: Table) -> str:
    return reverse("phone:table_answer", args=[table.token])


def answer_url_for_players(event: Event) -> str:
    return reverse("phone:player_answer", args=[event.players_token])


def answer_page_url(event: Event) -> str:
    return reverse("phone:answer_page", args=[event.players_token])


def _answer_text(answer: DebriefAnswer) -> str:
    """The answer in words: its text, else its number in words (a row has one or the
    other, the debrief_answer_not_empty constraint)."""
    if answer.text or answer.number is None:
        return answer.text
    return answer_words(answer.question.kind, answer.number)


def _answered(
    request: HtmxRequest,
    event: Event,
    live: Callable[[tuple[str, str]], HttpResponse],
    back: str,
    *,
    link: str,
    source_limit: int,
) -> HttpResponse:
    """Store the posted answer, then answer with the live part (htmx) or a redirect.
    `link` names the link it came through, for the answer's source (see
    tables.writes.debrief_answers: Terms: source)."""
    phone = phone_id(request)
    refused_now = False
    try:
        if phone is None:
            raise Refused(_no_phone_id_message())
        answer = answer_question(
            event=event,
            question_id=positive_int(request.POST.get("question")) or 0,
            phone=phone,
            text=request.POST.get("text", "")[:POSTED_TEXT_MAX],
            number=positive_int(request.POST.get("number")),
            source=answer_source(link=link, address=client_address(request)),
            source_limit=source_limit,
        )
    except Refused as refused:
        notice, refused_now = ("error", refused.message), True
    else:
        notice = (
            "good",
            _(
                "Thank you: your answer is in (%(answer)s). "
                "You can change it until the question closes."
            )
            % {"answer": _answer_text(answer)},
        )
    if request.htmx:
        # A refusal is swapped in like a success (htmx leaves a 4xx unswapped): the page
        # shows the question as it is now, with the reason.
        event.refresh_from_db()
        response = live(notice)
    else:
        (messages.error if refused_now else messages.success)(request, notice[1])
        response = HttpResponseRedirect(back)
    keep_phone_id(response, request, phone or new_phone_id())
    return response


def _no_phone_id_message() -> str:
    return _(
        "Your answer is not stored: this phone did not get its id from the page. "
        "Allow cookies for this site, then send your answer again."
    )


@csrf_exempt
@require_POST
@table_from_link
def table_answer(request: HtmxRequest, table: Table) -> HttpResponse:
    """An answer from a table's page."""
    return _answered(
        request,
        table.event,
        lambda notice: render_table_screen(request, table, LIVE_PARTIAL, answer_notice=notice),
        reverse("phone:table", args=[table.token]),
        link=f"table:{table.pk}",
        source_limit=table_source_limit(),
    )


@csrf_exempt
@require_POST
@event_from_players_link
def player_answer(request: HtmxRequest, event: Event) -> HttpResponse:
    """An answer from the players' page (a player who picked a name) or the answer page."""
    me = picked_player(request, event)

    def live(notice: tuple[str, str]) -> HttpResponse:
        if me is None or request.POST.get("from") == "answer":
            return render(request, f"{ANSWER_PAGE}#live", _answer_context(request, event, notice))
        context = player_page_context(player_screen(event, me), request)
        return render(request, "phone/player.html#live", {**context, "answer_notice": notice})

    if me is None or request.POST.get("from") == "answer":
        back = answer_page_url(event)
    else:
        back = reverse("phone:player_home", args=[event.players_token])
    return _answered(
        request,
        event,
        live,
        back,
        link=f"players:{event.pk}",
        source_limit=players_source_limit(event),
    )


@csrf_exempt
@require_POST
@player_from_link
def screen_answer(request: HtmxRequest, player: Player) -> HttpResponse:
    """An answer from a player's own screen at a screen event (see Terms: own screen):
    answered with the screen's live part, as its poll would show it."""

    def live(notice: tuple[str, str]) -> HttpResponse:
        context = {**live_context(request, player), "answer_notice": notice}
        return render(request, SCREEN_LIVE_PARTIAL, context)

    return _answered(
        request,
        player.event,
        live,
        reverse("phone:screen", args=[player.token]),
        link=f"player:{player.pk}",
        source_limit=1 + SPARE_PHONES,  # the player's own device and its spares
    )


# --- the answer page ---------------------------------------------------------------------


def _answer_version(request: HtmxRequest, players_token: str) -> str | None:
    found = (
        Event.objects.for_players_token(players_token).values_list("shared_version", flat=True)
    ).first()
    return None if found is None else f"a{found}"


def _answer_context(
    request: HtmxRequest, event: Event, notice: tuple[str, str] | None = None
) -> dict:
    return {
        "event": event,
        "asked": phone_question(event, phone_id(request)),
        "answer_url": answer_url_for_players(event),
        "answer_from": "answer",
        "answer_notice": notice,
        "etag": quoted_etag(f"a{event.shared_version}"),
        "poll_trigger": poll_trigger(),
        "live_url": answer_page_url(event),
    }


@require_GET
@never_cache
@etag_from_version(_answer_version)
@event_from_players_link
def answer_page(request: HtmxRequest, event: Event) -> HttpResponse:
    """The asked question for any phone (see Terms: answer page); it polls while the
    event is not finished, so the next question appears by itself."""
    template = f"{ANSWER_PAGE}#live" if request.htmx else ANSWER_PAGE
    response = render(request, template, _answer_context(request, event))
    keep_phone_id(response, request, phone_id(request) or new_phone_id())
    return response
