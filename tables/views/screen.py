"""A player's own screen at an event whose cards are on screens: their table, their hand,
the trick in play and the pointing, and between rounds where they go next.

Terms:
    personal link  /t/p/<token>/: the player's own token is the only credential. The
                   event's join link (/t/me/<players_token>/) leads here once a person
                   picks their name (tables.views.player).
    device         the phone id cookie (tournament.common.phone_ids). One device holds the seat
                   (tables.writes.screen_seats.hold_seat) and only it sees the hand: the
                   first to open the link, then one that pressed "Play on this device"
                   once the holder freed the seat or was away for minutes.
    action         a card played, a pointing or a claim (who won the game: tables.writes.
                   game_claims), sent with the client key the page made: answered with
                   ``X-Action-Stored`` once stored (or already stored), or a 4xx with
                   ``X-Action-Refused`` and the reason, never retried; anything else leaves
                   it in the page's outbox (static/js/screen.js).
    live part      the part of the page that polls and swaps (``#live``), 304 while the
                   table's version, the event's shared version and the seat's holder stay.

It shows the table's rules only while the table studies, as a table's phone does, and
never another table's.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from functools import wraps

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from tables.forms import GameClaimForm, ScreenActionForm
from tables.models import Deal, ScreenSeat, Table
from tables.reads.debrief_answers import phone_question
from tables.reads.screen_play import (
    deal_in_play_for,
    never_held,
    play_round,
    screen_round,
    seat_is_free,
    table_view,
)
from tables.reads.screens import player_screen
from tables.reads.silent_channel import gesture_buttons, ink_choices, table_video_link
from tables.rules.rule_sheets import rule_sheet
from tables.views.links import link_invalid
from tables.writes.game_claims import point_at_winner
from tables.writes.screen_play import Done, play_card, point_at_card
from tables.writes.screen_seats import SEEN_EVERY_SECONDS, free_seat, hold_seat, note_seen
from tournament.common.busy import answer_action
from tournament.common.languages import phone_language, pick_phone_language, speak
from tournament.common.phone_ids import keep_phone_id, new_phone_id, phone_id
from tournament.common.polling import (
    STREAM_BEAT_SECONDS,
    clock_text,
    etag_from_version,
    poll_trigger,
    quoted_etag,
)
from tournament.common.requests import HtmxRequest
from tournament.models import Phase, Player, Seat, looks_like_token

LIVE_PARTIAL = "phone/screen.html#live"
PLAY_PARTIAL = "phone/_screen_play.html"
STORED_HEADER = "X-Action-Stored"
PUSHED_HEADER = "X-Screen-Pushed"  # sent by static/js/screen.js while its stream is open
REFUSED_HEADER = "X-Action-Refused"
# The table's version an action stored at: its screen waits for a state at least as new.
VERSION_HEADER = "X-Table-Version"
COOKIE_CHECK = "c"  # screen_home's one trip to give a browser its device cookie
# The ETag also changes this often, so a quiet table's live part is drawn again and shows
# who is gone by now (tables.reads.screen_play: gone).
PRESENCE_SECONDS = 20

PlayerView = Callable[..., HttpResponse]


def _player(token: str) -> Player | None:
    if not looks_like_token(token):
        return None
    return Player.objects.on_roster().filter(token=token).select_related("event").first()


def player_from_link(view: PlayerView) -> PlayerView:
    """Call ``view(request, player)`` for the player a personal link names, or the 404."""

    @wraps(view)
    def wrapped(request: HtmxRequest, token: str, *args, **kwargs) -> HttpResponse:
        player = _player(token)
        if player is None or not player.event.on_screens:
            return link_invalid(request, for_player=True)
        speak(request, phone_language(request, event_language=player.event.language))
        return view(request, player, *args, **kwargs)

    return wrapped


def _version(request: HttpRequest, token: str) -> str | None:
    """The live part's version, read once a request: the ETag check before the view and
    the page's own ETag inside it ask for the same one."""
    cached = getattr(request, "_screen_version", None)
    if cached is not None and cached[0] == token:
        return cached[1]
    version = _read_version(request, token)
    request._screen_version = (token, version)  # type: ignore[attr-defined]
    return version


def _read_version(request: HttpRequest, token: str) -> str | None:
    """Two queries: the player with their event, seat holder and sighting, then their
    table's version. A player not sighted for twice SEEN_EVERY_SECONDS is sighted on the way
    (tables.models.screen_play, Terms: sighting) when the request comes from a browser
    that keeps the device cookie: a poll answered 304 says the screen is open as surely
    as a page does, while a link's preview in a chat, which keeps no cookie, says
    nothing."""
    row = (
        Player.objects.filter(token=token)
        .values_list(
            "pk",
            "event__shared_version",
            "event__phase",
            "event__round_number",
            "screen_seat__device",
            "screen_sighting__last_seen",
        )
        .first()
        if looks_like_token(token)
        else None
    )
    if row is None:
        return None
    pk, shared, phase, number, holder, last_seen = row
    number = max(number, 1) if phase in (Phase.SETUP, Phase.STUDY, Phase.PRACTICE) else number
    table_version = (
        Seat.objects.filter(player_id=pk, round__number=number)
        .values_list("table__version", flat=True)
        .first()
    )
    device = phone_id(request)
    # Twice the sighting's period: a screen whose live channel is open is sighted by its
    # heartbeat (tournament.serving.live_channel) and its polls need not write too.
    late = (
        last_seen is None or (timezone.now() - last_seen).total_seconds() > 2 * SEEN_EVERY_SECONDS
    )
    # Only a device that may hold the seat is sighted: one waiting to take it over must not
    # keep the holder's seat looking in use (tables.reads.screen_play: seat_is_free).
    if device and late and holder in (None, "", device):
        note_seen(player_ids=[pk])
    mine = bool(device) and holder == device
    return f"{shared}.{table_version or 0}.{int(mine)}.{int(time.time()) // PRESENCE_SECONDS}"


def live_context(
    request: HttpRequest,
    player: Player,
    *,
    device: str | None = None,
    notice: tuple[str, str] | None = None,
) -> dict:
    event = player.event
    device = device or phone_id(request)
    screen = player_screen(event, player)
    holder = ScreenSeat.objects.filter(player=player).values_list("device", flat=True).first()
    # The hand goes into the page only for the device that holds the seat.
    mine = bool(device) and holder == device
    view = None
    # At time up the table stays on the screen as it stood, closed: nothing is played.
    closed = event.phase == Phase.ROUND and screen.time_is_up
    where = screen_round(event) if closed else play_round(event)
    if screen.seat is not None and where is not None:
        deal = deal_in_play_for(where[0].pk, screen.seat.table_id)
        if deal is not None:
            view = table_view(deal, event=event, me=player.pk if mine else None)
    seconds = event.clock_seconds_left()
    table: Table | None = screen.seat.table if screen.seat else None
    # Between rounds the video room is the next table's: the player is on their way there.
    video_table = screen.next_seat.table if screen.next_seat else table
    sheet = None
    if table is not None and event.phase == Phase.STUDY:
        # This player's own table's rules, in the study phase only (as its phone page).
        players = len(view.seats) if view else None
        sheet = rule_sheet(table.variant, players=players, translate=gettext)
    return {
        "event": event,
        "me": player,
        "screen": screen,
        # Not "table": the phone pages' base would carry that table's own phone link.
        "seat_table": table,
        "own_language_url": True,
        "view": view,
        "closed": closed,
        "sheet": sheet,
        # No hand here: the seat is another device's, or nobody's yet (freed, or no cookie).
        "taken_over": not mine,
        "held_elsewhere": bool(holder) and holder != device,
        "notice": notice,
        "seconds_left": seconds,
        "clock_text": clock_text(seconds),
        "phase_title": event.phase_title,
        "etag": quoted_etag(_version(request, player.token) or ""),
        "poll_trigger": poll_trigger(),
        "beat_seconds": STREAM_BEAT_SECONDS,
        "live_url": reverse("phone:screen_live", args=[player.token]),
        "stream_url": reverse("phone:screen_stream", args=[player.token]),
        "play_url": reverse("phone:screen_play", args=[player.token]),
        "point_url": reverse("phone:screen_point", args=[player.token]),
        "claim_url": reverse("phone:screen_claim", args=[player.token]),
        **_silent_channel(player),
        "video_url": table_video_link(event, video_table) if video_table is not None else "",
        "video_table": video_table,
        "home_url": reverse("phone:screen", args=[player.token]),
        # The debrief's question, answered from this screen (tables.views.answers).
        "asked": phone_question(event, device),
        "answer_url": reverse("phone:screen_answer", args=[player.token]),
        "new_key": secrets.token_urlsafe(16),
    }


def _silent_channel(player: Player) -> dict:
    """What the play area's pad and gesture buttons need (tables.views.silent_channel)."""
    return {
        "draw_url": reverse("phone:screen_draw", args=[player.token]),
        "gesture_url": reverse("phone:screen_gesture", args=[player.token]),
        "inks": ink_choices(),
        "gesture_buttons": gesture_buttons(),
    }


@require_GET
@never_cache
@player_from_link
def screen_home(request: HtmxRequest, player: Player) -> HttpResponse:
    """The player's screen. It shows the hand only to the device that holds the seat
    (see Terms: device). A browser without the device cookie gets one and comes back
    (``?c=1`` once, so a browser that keeps none is not sent round in circles): a link's
    preview in a chat sees no hand. The first browser to open a seat nobody ever held
    takes it; any other device is offered "Play on this device" (a POST, take_seat), so
    a seat never changes hands by opening a link."""
    known = phone_id(request)
    if known is None and COOKIE_CHECK not in request.GET:
        again = HttpResponseRedirect(f"{request.path}?{COOKIE_CHECK}=1")
        keep_phone_id(again, request, new_phone_id())
        return again
    device = known or ""
    if known and not player.event.is_finished and never_held(player):
        hold_seat(player=player, device=known)
    response = render(request, "phone/screen.html", live_context(request, player, device=device))
    if known is None:
        keep_phone_id(response, request, new_phone_id())
    return response


@csrf_exempt  # the personal link in the URL is the credential; nothing rides on a cookie
@require_POST
@player_from_link
def take_seat(request: HtmxRequest, player: Player) -> HttpResponse:
    """ "Play on this device": the seat moves here when nobody holds it or its holder has
    been away for minutes (seat_is_free); the other device is told at once. A holder seen
    lately must free the seat on its own screen first, or the organizer gives the player
    a new link: nobody takes a seat from a screen that is in use."""
    device = phone_id(request)
    response = HttpResponseRedirect(reverse("phone:screen", args=[player.token]))
    if device is None:
        messages.error(request, _("This browser keeps no cookie, so it cannot hold a seat."))
        return response
    if player.event.is_finished:
        return response
    if not seat_is_free(player, device):
        messages.error(
            request,
            _(
                "Your seat is in use on another device. Press “Free this seat” there, "
                "then “Play on this device” here; or ask the organizer for a new link."
            ),
        )
        return response
    hold_seat(player=player, device=device)
    return response


@csrf_exempt  # as take_seat
@require_POST
@player_from_link
def let_go_of_seat(request: HtmxRequest, player: Player) -> HttpResponse:
    """ "Free this seat": the holder's screen lets the player's other device take it."""
    if free_seat(player=player, device=phone_id(request) or ""):
        messages.success(
            request, _("Your seat is free: press “Play on this device” on the other device.")
        )
    return HttpResponseRedirect(reverse("phone:screen", args=[player.token]))


@require_GET
@never_cache
@etag_from_version(_version, early=True)
@player_from_link
def screen_live(request: HtmxRequest, player: Player) -> HttpResponse:
    # Its version sighted the player on the way (_read_version).
    return render(request, LIVE_PARTIAL, live_context(request, player))


def _answer(request: HtmxRequest, player: Player, *, done=None, notice=None, status=200):
    """The answer to an action (see Terms: action). A stored one is answered with nothing
    when the screen's live channel is open (``X-Screen-Pushed``), else with the play area
    alone, read from the deal the write returns: a card played is the most frequent
    request of a screen table, and its answer costs a table's read at most, never a
    page's. A refused one gets the whole live part, with its reason."""
    if not request.htmx:
        # A plain form: back to the page, which shows the reason of a refusal once.
        if notice is not None:
            messages.error(request, notice[1])
        return HttpResponseRedirect(reverse("phone:screen", args=[player.token]))
    if done is not None and request.headers.get(PUSHED_HEADER) == "1":
        # The live channel is open on this screen: it brings the table's state to every
        # screen at the table, this one too, so the answer says "stored" and nothing else.
        response = HttpResponse(status=204)
        response[STORED_HEADER] = "1"
        if done.table_version is not None:
            response[VERSION_HEADER] = str(done.table_version)
        return response
    if done is not None:
        deal = Deal.objects.select_related("table", "round__event").get(pk=done.deal.pk)
        if deal.ended_at is None:
            event = deal.round.event
            context = {
                "view": table_view(deal, event=event, me=player.pk),
                "me": player,
                "new_key": secrets.token_urlsafe(16),
                "play_url": reverse("phone:screen_play", args=[player.token]),
                "point_url": reverse("phone:screen_point", args=[player.token]),
                "claim_url": reverse("phone:screen_claim", args=[player.token]),
                **_silent_channel(player),
            }
            response = render(request, PLAY_PARTIAL, context)
            response[STORED_HEADER] = "1"
            return response
    player.event.refresh_from_db()
    context = live_context(request, player, notice=notice)
    response = render(request, LIVE_PARTIAL, context, status=status)
    response[STORED_HEADER if done is not None else REFUSED_HEADER] = "1"
    return response


def _act(request: HtmxRequest, player: Player, action, form_class=ScreenActionForm):
    form = form_class(request.POST)
    if not form.is_valid():
        return _answer(request, player, notice=("error", form.first_error()), status=400)
    device = phone_id(request) or ""
    return answer_action(
        request,
        write=lambda: action(form.cleaned_data, device),
        answer=lambda done: _answer(request, player, done=done),
        refused=lambda refusal: _answer(
            request, player, notice=("error", refusal.message), status=409
        ),
        page_url=reverse("phone:screen", args=[player.token]),
    )


@csrf_exempt  # the personal link in the URL is the credential; nothing rides on a cookie
@require_POST
@player_from_link
def play(request: HtmxRequest, player: Player) -> HttpResponse:
    def action(data: dict, device: str) -> Done:
        return play_card(
            player=player,
            card=data["card"],
            client_key=data["key"],
            device=device,
            deal_id=data["deal"],
            trick=data["trick"],
        )

    return _act(request, player, action)


@csrf_exempt  # as play
@require_POST
@player_from_link
def point(request: HtmxRequest, player: Player) -> HttpResponse:
    def action(data: dict, device: str) -> Done:
        return point_at_card(
            player=player,
            trick=data["trick"] or 0,
            card=data["card"],
            client_key=data["key"],
            device=device,
            deal_id=data["deal"],
        )

    return _act(request, player, action)


@csrf_exempt  # as play
@require_POST
@player_from_link
def claim(request: HtmxRequest, player: Player) -> HttpResponse:
    def action(data: dict, device: str) -> Done:
        return point_at_winner(
            player=player,
            winner_id=data["winner"],
            client_key=data["key"],
            device=device,
            deal_id=data["deal"],
            taken=data["taken"],
        )

    return _act(request, player, action, GameClaimForm)


@csrf_exempt  # a language pick risks nothing; the link in the URL is the credential
@require_POST
@player_from_link
def choose_language(request: HtmxRequest, player: Player) -> HttpResponse:
    """This device's own language, kept for a year; an empty pick follows the room again."""
    return pick_phone_language(request, reverse("phone:screen", args=[player.token]))


@require_GET
@never_cache
def no_stream(request: HttpRequest, token: str) -> HttpResponse:
    """The live channel's URL where no ASGI server routes it (tournament.serving.asgi), as under
    Django's own test or development server: 204 tells the page's EventSource to stop
    trying, and the page keeps polling."""
    return HttpResponse(status=204)
