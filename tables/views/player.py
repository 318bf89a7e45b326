"""A player's own page: pick your name once, then your phone follows you from table to table.

Terms:
    players link  /t/me/<players_token>/, shown as a QR code on the projector. One link
                  for the whole event; it carries no table's token, so it can never lead
                  to a table's page or its rules.
    me            the player this phone picked, kept in a signed cookie for this event only
                  (no account, no session). "Not me" shows the names again.
    your table    where you sit in the round being played (your home table before that).
    next table    after a round closes: where you go next, and why.
    search key    a name folded as name_key folds it (Latin letters, no case): each name
                  button carries it, so static/js/pick.js narrows the list as the player
                  types, the way the server's search would.

This page never shows rules: a player could pick anybody's name.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from tables.forms import PickPlayerForm
from tables.reads.debrief_answers import phone_question
from tables.reads.screen_play import holds_other_seat, seat_is_free
from tables.reads.screens import PlayerScreen, play_round_number, player_screen
from tables.views.links import event_from_players_link
from tables.writes.screen_seats import hold_seat
from tournament.common.inputs import positive_int
from tournament.common.isolation import with_names
from tournament.common.languages import pick_phone_language
from tournament.common.phone_ids import keep_phone_id, new_phone_id, phone_id
from tournament.common.polling import (
    clock_text,
    etag_from_version,
    poll_trigger,
    quoted_etag,
    stop_polling,
)
from tournament.models import Event, Phase, Player, Seat
from tournament.rules.ordering import name_key

COOKIE_SALT = "tables.player"
COOKIE_AGE = 3 * 24 * 60 * 60
ALL_NAMES_UP_TO = 40  # longer rosters ask for a few letters first
MATCHES_SHOWN = 30
LIVE_PARTIAL = "phone/player.html#live"


# --- helpers ---------------------------------------------------------------------------


def _player_version(request: HttpRequest, players_token: str) -> str | None:
    """Shared event state, who this phone is, and the version of that player's table:
    a report at another table leaves this page at 304. Two queries."""
    event = (
        Event.objects.for_players_token(players_token)
        .only("pk", "phase", "round_number", "shared_version")
        .first()
    )
    if event is None:
        return None
    player_id = _my_player_id(request, event)
    table_version = (
        Seat.objects.filter(
            player_id=player_id, round__event=event, round__number=play_round_number(event)
        )
        .values_list("table__version", flat=True)
        .first()
        if player_id is not None
        else None
    )
    return screen_version(event.shared_version, player_id, table_version)


def screen_version(shared_version: int, player_id: int | None, table_version: int | None) -> str:
    return f"{shared_version}.{player_id or 0}.{table_version or 0}"


def _cookie_name(event: Event) -> str:
    return f"ft-player-{event.pk}"


def _my_player_id(request: HttpRequest, event: Event) -> int | None:
    return positive_int(request.get_signed_cookie(_cookie_name(event), None, salt=COOKIE_SALT))


def picked_player(request: HttpRequest, event: Event) -> Player | None:
    """The player this phone picked at this event (see Terms: me), if still on the roster."""
    player_id = _my_player_id(request, event)
    if player_id is None:
        return None
    return Player.objects.on_roster().filter(event=event, pk=player_id).first()


def _home_url(event: Event) -> str:
    return reverse("phone:player_home", args=[event.players_token])


def _matching_names(event: Event, query: str) -> tuple[list[tuple[int, str, str]], int, bool]:
    """(matches shown as (id, name, search key), roster size, whether a search is needed
    first). One query."""
    roster = [
        (pk, name, name_key(name)[0])
        for pk, name in event.players.on_roster().values_list("pk", "name")
    ]
    roster.sort(key=lambda row: (row[2], row[1]))
    folded = name_key(query.strip())[0]
    if not folded:
        if len(roster) <= ALL_NAMES_UP_TO:
            return roster, len(roster), False
        return [], len(roster), True
    matches = [row for row in roster if folded in row[2]]
    return matches[:MATCHES_SHOWN], len(roster), False


def _pick_context(event: Event, query: str, error: str = "") -> dict:
    names, roster_size, needs_search = _matching_names(event, query)
    return {
        "event": event,
        "names": names,
        "query": query,
        "roster_size": roster_size,
        "needs_search": needs_search,
        "error": error,
    }


def player_page_context(screen: PlayerScreen, request: HttpRequest) -> dict:
    """What the player's page and its live part show (answers.py draws it after an answer)."""
    seconds = screen.event.clock_seconds_left()
    asked = None
    if screen.event.phase == Phase.DEBRIEF:
        # The question the projector shows, when the room answers it (tables.views.answers).
        asked = phone_question(screen.event, phone_id(request))
    return {
        "asked": asked,
        "answer_url": reverse("phone:player_answer", args=[screen.event.players_token]),
        "screen": screen,
        "event": screen.event,
        "me": screen.player,
        "phase_title": screen.event.phase_title,
        "seconds_left": seconds,
        "clock_text": clock_text(seconds),
        "etag": quoted_etag(
            screen_version(
                screen.event.shared_version,
                screen.player.pk,
                screen.seat.table.version if screen.seat else None,
            )
        ),
        "poll_trigger": poll_trigger(),
        "live_url": reverse("phone:player_live", args=[screen.event.players_token]),
    }


# --- views -----------------------------------------------------------------------------


@require_GET
@never_cache
@event_from_players_link
def player_home(request: HttpRequest, event: Event) -> HttpResponse:
    me = None if "pick" in request.GET else picked_player(request, event)
    if me is None:
        query = request.GET.get("q", "")[:40]
        response = render(request, "phone/player_pick.html", _pick_context(event, query))
        # At a screen event the pick hands this device a seat: it needs its id first.
        keep_phone_id(response, request, phone_id(request) or new_phone_id())
        return response
    response = render(
        request, "phone/player.html", player_page_context(player_screen(event, me), request)
    )
    # The id its debrief answers need (tables.views.answers: phone id).
    keep_phone_id(response, request, phone_id(request) or new_phone_id())
    return response


@require_GET
@never_cache
@event_from_players_link
def player_names(request: HttpRequest, event: Event) -> HttpResponse:
    """The names matching a search, for the picker's type-ahead."""
    query = request.GET.get("q", "")[:40]
    return render(request, "phone/player_pick.html#names", _pick_context(event, query))


@require_GET
@never_cache
@etag_from_version(_player_version, early=True)
@event_from_players_link
def player_live(request: HttpRequest, event: Event) -> HttpResponse:
    me = picked_player(request, event)
    if me is None:
        # The cookie is gone (cleared, or the player was removed): back to the names.
        response = HttpResponse(status=204)
        response["HX-Redirect"] = _home_url(event)
        return response
    screen = player_screen(event, me)
    response = render(request, LIVE_PARTIAL, player_page_context(screen, request))
    return response if screen.polling else stop_polling(response)


@csrf_exempt  # nothing rides on a cookie here: the link in the URL is the only credential
@require_POST
@event_from_players_link
def pick_player(request: HttpRequest, event: Event) -> HttpResponse:
    form = PickPlayerForm(request.POST)
    player = None
    if form.is_valid():
        player = (
            Player.objects.on_roster().filter(event=event, pk=form.cleaned_data["player"]).first()
        )
    if player is None:
        context = _pick_context(
            event, "", error=_("That name is not on the list. Pick yours again.")
        )
        return render(request, "phone/player_pick.html", context, status=400)
    if event.on_screens:
        return _pick_screen_seat(request, event, player)
    response = HttpResponseRedirect(_home_url(event))
    response.set_signed_cookie(
        _cookie_name(event),
        str(player.pk),
        salt=COOKIE_SALT,
        max_age=COOKIE_AGE,
        path=_home_url(event),
        httponly=True,
        samesite="Lax",
    )
    return response


def _pick_screen_seat(request: HttpRequest, event: Event, player: Player) -> HttpResponse:
    """A screen event's player plays from their own link (tables.views.screen), which
    the pick hands out together with the seat, and only to a device that holds no other
    seat of the event, when nobody plays that name (or its holder has been away for
    minutes, or freed it). The seat is taken here, at the press of a name: the device
    that held it before, if any, is told at once. Otherwise the link stays unknown."""
    device = phone_id(request) or ""
    problem = _seat_problem(player, device)
    if problem is not None:
        context = _pick_context(event, "", error=problem)
        return render(request, "phone/player_pick.html", context, status=409)
    if not event.is_finished:
        hold_seat(player=player, device=device)
    return HttpResponseRedirect(reverse("phone:screen", args=[player.token]))


def _seat_problem(player: Player, device: str) -> str | None:
    """Why the pick may not hand this device the player's seat, or None."""
    if not device:
        return _("This browser keeps no cookie, so it cannot hold a seat.")
    if holds_other_seat(player, device):
        return _("This device plays another name already. Ask the organizer for help.")
    if not seat_is_free(player, device):
        busy = _(
            "“%(name)s” is playing on another device now. Use your own link, or ask the organizer."
        )
        return with_names(busy, {"name": player.name}, names={"name"})
    return None


@csrf_exempt  # a language pick risks nothing; the link in the URL is the credential
@require_POST
@event_from_players_link
def choose_language(request: HttpRequest, event: Event) -> HttpResponse:
    """This phone's own language, kept for a year; an empty pick follows the room again."""
    return pick_phone_language(request, _home_url(event))
