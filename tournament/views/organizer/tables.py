"""One table in the console: its page (players, games, the rounds before), refreshed by
polling, and what the organizer changes about the table itself: its phone link, the
language of its rule sheet.

Terms:
    round    ?round=N shows an earlier round of the table; without it the page follows
             the round the table plays now (tournament.reads.console.build_table_view).
    refresh  at a screen event the page's ETag also follows the clock, every
             GONE_REFRESH_SECONDS: a player becomes gone by the clock alone, which no write
             tells (tables.reads.screen_play: gone), and the page must say so and offer to
             play their hand.
"""

from __future__ import annotations

import time

from django.conf import settings
from django.contrib.messages import get_messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from tables.models import Table
from tables.reads.game_claims import uses_scoring_clause
from tables.reads.screen_play import console_table, screen_round
from tournament.common.inputs import positive_int
from tournament.common.polling import etag_from_version, poll_trigger, quoted_etag
from tournament.models import CardsOn, Event, Round
from tournament.reads.console import build_table_view, optional_url
from tournament.views.access import event_view
from tournament.views.organizer.answers import console_url, run_action
from tournament.views.organizer.console import clock_context
from tournament.writes.seating import rotate_table_link, set_sheet_language

GONE_REFRESH_SECONDS = 5


def table_etag(version: int, cards: str) -> str:
    """The page's ETag (see Terms: refresh)."""
    if cards == CardsOn.SCREENS:
        return f"{version}.{int(time.time() // GONE_REFRESH_SECONDS)}"
    return str(version)


def table_version(request: HttpRequest, pk: int, *args, **kwargs) -> str | None:
    """The page's ETag for its polls: Event.version in one query, as visible_version, and
    the clock's period at a screen event (see Terms: refresh)."""
    if not request.user.is_authenticated:
        return None
    found = (
        Event.objects.reachable_by(request.user)
        .filter(pk=pk)
        .values_list("version", "cards")
        .first()
    )
    return None if found is None else table_etag(*found)


def table_url(event: Event, number: int) -> str:
    return reverse("organizer:table", args=[event.pk, number])


def table_context(request: HttpRequest, event: Event, number: int) -> dict:
    table = get_object_or_404(Table, event=event, number=number)
    requested = request.GET.get("round")
    round_number = positive_int(requested) if requested else None
    if requested and round_number is None:
        raise Http404
    try:
        view = build_table_view(event, table, round_number=round_number)
    except Round.DoesNotExist as missing:
        raise Http404 from missing
    here = reverse("organizer:table", args=[event.pk, number])
    live_url = reverse("organizer:table_live", args=[event.pk, number])
    if round_number is not None:
        here += f"?round={round_number}"
        live_url += f"?round={round_number}"
    where = screen_round(event)
    on_screen = None
    if where is not None and view.round_ is not None and where[0].pk == view.round_.pk:
        on_screen = console_table(event, where[0].pk, table.pk)
    return {
        "event": event,
        "table": table,
        "on_screen": on_screen,
        # A game's winner is the players' word there, or the organizer's (game_claims).
        "claims_games": on_screen is not None and uses_scoring_clause(event),
        "variant_label": view.variant_label,
        "round": view.round_,
        "rounds": view.rounds,
        "players": view.players,
        "possible_winners": view.possible_winners,
        "games": view.games,
        # At a screen table the games record themselves: the console only watches.
        "can_add": view.can_add and not event.on_screens,
        "here": here,
        "live_url": live_url,
        "etag": quoted_etag(table_etag(event.version, event.cards)),
        "poll_trigger": poll_trigger(),
        "phone_url": optional_url("phone:table", table.token),
        **clock_context(event),
        # Lazy: reading the messages takes them, and the live part shows none; a poll
        # landing between a press and its redirect took the press's message.
        "site_messages": SimpleLazyObject(lambda: list(get_messages(request))),
        "table_numbers": view.table_numbers,
    }


@require_GET
@event_view()
def table_view(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    return render(request, "organizer/table.html", table_context(request, event, number))


@require_GET
@etag_from_version(table_version)
@event_view()
def table_live(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    return render(
        request,
        "organizer/table.html#live_update",
        table_context(request, event, number),
    )


@require_POST
@event_view()
def table_rotate_link(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    table = get_object_or_404(Table, event=event, number=number)

    def rotate() -> str:
        rotate_table_link(table=table)
        return _(
            "Table %(number)s has a new phone link. The old one no longer works: print the "
            "table's new QR code from the kit."
        ) % {"number": table.number}

    return run_action(request, rotate, default=console_url(event, "tables"))


@require_POST
@event_view()
def table_sheet_language(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    """Print one table's rule sheet in another language than the event's (or back)."""
    table = get_object_or_404(Table, event=event, number=number)
    language = request.POST.get("language", "")

    def change() -> str:
        set_sheet_language(table=table, language=language)
        table.event = event
        return _(
            "Table %(number)s's rule sheet is now printed in %(language)s. Reprint the table "
            "from the kit."
        ) % {
            "number": table.number,
            "language": dict(settings.LANGUAGES)[table.rule_sheet_language],
        }

    return run_action(request, change, default=table_url(event, number))
