"""The console: ONE page per event, and its live sections refreshed by polling.

Terms:
    console   the page that runs one event. Its *live* sections (phase, round panel, late
              reports, tables, notes) refresh by polling, the others change only through the
              organizer's own actions. What it shows is read by tournament.reads.console; the
              views here add what depends on the request: forms, messages, URLs, the ETag.
    section key  what one live section shows, as a short string (live_keys). The poller's
              URL carries the keys of the sections the page holds, so a changed poll sends
              back only the sections (and table cards) whose key differs: a report at one
              table re-renders that table's card, not the 125 others nor the phase.
    heard     what the page has told the organizer about, as a short string (heard_key):
              the results round, its games reported and disputed, the reports to check.
              The poller's URL carries it too, so a poll answers with the news since the
              page's last poll (news): said once, counted, never again on the next poll.
              A press re-renders the page with its own message, so its news is not said.

The actions the console's sections post to live beside their feature (roster, plan,
rounds ...); a refused form comes back on this page through console_context.
"""

from __future__ import annotations

import time
from functools import partial

from django.contrib.messages import get_messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.utils.http import urlencode
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET

from tables.reads.game_claims import uses_scoring_clause
from tournament.common.polling import clock_text, etag_from_version, poll_trigger, quoted_etag
from tournament.forms import MovePlayerForm, RosterForm, SetVariantForm, TablePlanForm
from tournament.forms.room import HotspotForm
from tournament.models import Event, Phase
from tournament.reads.console import Console, build_console, optional_url
from tournament.reads.console.page import TableCard
from tournament.reads.console.reached import (
    BEFORE_PLAY,
    REACHED_REFRESH_SECONDS,
    REACHED_SETTLE_SECONDS,
)
from tournament.reads.debrief import table_timelines
from tournament.reads.room import address_picker, room_settings
from tournament.rules.table_plan import BEST_TABLE_SIZE, MAX_TABLE_SIZE, MIN_TABLE_SIZE
from tournament.views.access import event_view
from tournament.views.organizer.radar import radar_context
from tournament.views.organizer.records import records_panel


def clock_context(event: Event) -> dict:
    """The clock as every console page shows it (static/js/clock.js counts it down), and
    what time up means at a screen event: at one with a scoring clause the players still
    point at who won a game cut off until the close (tables.writes.game_claims)."""
    seconds = event.clock_seconds_left()
    return {
        "seconds_left": seconds,
        "clock_text": clock_text(seconds),
        "paused": event.clock_is_paused,
        "time_is_up": event.time_is_up(),
        # Lazy: read (one query at most) only where a page says what time up means.
        "claims_at_time_up": SimpleLazyObject(partial(uses_scoring_clause, event)),
    }


def live_keys(console: Console) -> dict[str, str]:
    """The key of each live section (see Terms), from what the console already loaded.

    The phase section changes only with the event-wide version (shared_version), except in
    the debrief, where it also shows the room's answers as they arrive: an answer bumps
    Event.version alone (tables.writes.debrief_answers), so there it follows that too.
    Late reports also change with their count and newest id, the frame of the tables
    section (heading, reprint warning, which tables there are) with shared_version and the
    reprints, its heading also with the phones reached in all (re-sent only then: a poll
    that swapped it every refresh moved the reprint link from under a click), and each
    table card with its own Table.version. The round panel is not
    keyed: it is small and follows every report, so each changed poll sends it.
    """
    event = console.event
    shared = event.shared_version
    late = console.late_reports
    return {
        "phase": f"{shared}.{event.version}" if event.phase == Phase.DEBRIEF else str(shared),
        "late": f"{shared}.{len(late)}.{max((r.pk for r in late), default=0)}",
        "frame": f"{shared}.{'-'.join(map(str, console.reprint_numbers))}",
        # The tables' heading: the frame's, and before play the phones (or screens) reached.
        "head": f"{shared}.{'-'.join(map(str, console.reprint_numbers))}"
        f".{console.phones_reached_total}.{'-'.join(map(str, console.screens_here_total or ()))}",
        "cards": ".".join(card_key(card) for card in console.cards),
        "notes": notes_key(console),
    }


def card_key(card: TableCard) -> str:
    """A table card's key: its table's version, and before play the phones (or screens)
    that reached it."""
    return f"{card.table.version}{card.reached_key}"


def notes_key(console: Console) -> str:
    """Changes with any note written, changed, deleted or chosen, and with the phase."""
    notes = console.notes
    newest = max((note.updated_at.timestamp() for note in notes), default=0)
    chosen = sum(note.on_projector for note in notes)
    return f"{console.event.shared_version}.{len(notes)}.{newest:.6f}.{chosen}"


def live_url(event: Event, console: Console) -> str:
    keys = {**live_keys(console), "heard": heard_key(console)}
    return reverse("organizer:event_live", args=[event.pk]) + "?" + urlencode(keys)


def heard_key(console: Console) -> str:
    """What the page has told the organizer about (see Terms): four counts."""
    number = console.results.number if console.results else 0
    counts = (number, console.reported_total, console.disputed_total, len(console.late_reports))
    return ".".join(map(str, counts))


def news(held: str | None, console: Console) -> str:
    """What a poll says has arrived since the page's last poll: "2 new results. 1 new
    dispute."; nothing from a poll that held no key, or another round (a new round's
    counts start again)."""
    before, now = (held or "").split("."), heard_key(console).split(".")
    if len(before) != len(now) or not all(part.isdigit() for part in before):
        return ""
    if before[0] != now[0]:
        return ""
    arrived = [max(0, int(count) - int(was)) for count, was in zip(now, before, strict=True)]
    return " ".join(
        words(count) % {"count": count}
        for words, count in zip(NEWS, arrived[1:], strict=True)
        if count
    )


# The words of news, in the order of heard_key's counts after the round.
NEWS = (
    lambda count: ngettext("%(count)s new result.", "%(count)s new results.", count),
    lambda count: ngettext("%(count)s new dispute.", "%(count)s new disputes.", count),
    lambda count: ngettext(
        "%(count)s new report to check.", "%(count)s new reports to check.", count
    ),
)


def live_sections(request: HttpRequest, console: Console, keys: dict[str, str]) -> dict | None:
    """Which live sections a poll re-renders: those whose key differs from the one the page
    holds; None (all of them) when the poll carries no keys."""
    held = {name: request.GET.get(name) or "" for name in keys}
    if not all(held.values()):
        return None
    cards_held = held["cards"].split(".")
    whole_tables = held["frame"] != keys["frame"] or len(cards_held) != len(console.cards)
    return {
        "phase": held["phase"] != keys["phase"],
        "late": held["late"] != keys["late"],
        "notes": held["notes"] != keys["notes"],
        "tables": whole_tables,
        "head": held["head"] != keys["head"],
        "cards": []
        if whole_tables
        else [
            card
            for card, version in zip(console.cards, cards_held, strict=True)
            if version != card_key(card)
        ],
    }


def live_context(request: HttpRequest, event: Event, console: Console) -> dict:
    """What the live sections need (no forms: they are in sections that do not poll)."""
    return {
        "event": event,
        "c": console,
        "etag": quoted_etag(console_etag(event.version, event.phase, event.paper_only)),
        "poll_trigger": poll_trigger(),
        "live_url": live_url(event, console),
        "timelines": SimpleLazyObject(partial(table_timelines, event)),
        **clock_context(event),
        "projector_url": optional_url("projector:screen", event.projector_token),
        "kit_url": optional_url("kit:event_kit", event.pk),
        "min_table_size": MIN_TABLE_SIZE,
        "max_table_size": MAX_TABLE_SIZE,
        "reached_settle_seconds": REACHED_SETTLE_SECONDS,
    }


def console_context(
    request: HttpRequest, event: Event, console: Console | None = None, **forms
) -> dict:
    """The whole console page; a form passed in (a refused one, showing what was typed)
    takes the place of its empty form."""
    console = console or build_console(event)
    present_seated = console.seated_choices if console.planned is not None else []
    table_numbers = [t.number for t in console.tables]
    suggestion = console.suggestion
    initial_count = (
        len(console.tables)
        if console.plan_made
        and any(p.table_count == len(console.tables) for p in console.plan_options)
        else (suggestion.table_count if suggestion else None)
    )
    return {
        "event": event,
        "c": console,
        "etag": quoted_etag(console_etag(event.version, event.phase, event.paper_only)),
        "poll_trigger": poll_trigger(),
        "live_url": live_url(event, console),
        # Lazy: read (five queries) only at the debrief, where the notes panel shows it.
        "timelines": SimpleLazyObject(partial(table_timelines, event)),
        **clock_context(event),
        **(radar_context(event) if event.phase == Phase.ROUND else {}),
        "projector_url": optional_url("projector:screen", event.projector_token),
        "kit_url": optional_url("kit:event_kit", event.pk),
        "best_table_size": BEST_TABLE_SIZE,
        "min_table_size": MIN_TABLE_SIZE,
        "max_table_size": MAX_TABLE_SIZE,
        "reached_settle_seconds": REACHED_SETTLE_SECONDS,
        "roster_form": forms.get("roster_form") or RosterForm(event=event, players=console.players),
        "plan_form": TablePlanForm(
            options=console.plan_options, initial={"table_count": initial_count}
        ),
        "move_form": forms.get("move_form")
        or MovePlayerForm(players=present_seated, tables=table_numbers),
        "variant_form": forms.get("variant_form") or SetVariantForm(),
        "site_messages": list(get_messages(request)),
        # Lazy: only the full page shows the Records section, so a live poll never reads
        # the backup folder.
        "records": SimpleLazyObject(partial(records_panel, event)),
        **(room_context(event, forms.get("hotspot_form")) if _organizes(event) else {}),
    }


def _organizes(event: Event) -> bool:
    access = getattr(event, "access", None)  # set by event_view
    return access is None or access.organize


def room_context(event: Event, hotspot_form: HotspotForm | None = None) -> dict:
    """The event's Room section (tournament.views.organizer.room): one query for its
    settings."""
    room = room_settings(event)
    return {
        "room": room,
        "picker": address_picker(room),
        "hotspot_form": hotspot_form
        or HotspotForm(
            initial={
                "wifi_name": room.wifi_name,
                "wifi_password": room.wifi_password,
                "wifi_security": room.wifi_security,
            }
        ),
    }


@require_GET
@event_view()
def event_console(request: HttpRequest, event: Event) -> HttpResponse:
    return render(request, "organizer/event.html", console_context(request, event))


# Before play the cards count the phones that reached each table in the last minute, which
# changes without any write to the event: the poll's ETag then changes every
# REACHED_REFRESH_SECONDS too (tournament.reads.console.reached, Terms: refresh).


def console_version(request: HttpRequest, pk: int, *args, **kwargs) -> str | None:
    """The live sections' ETag: Event.version (one query, as visible_version), and before
    play the current REACHED_REFRESH_SECONDS period, so the phone counts stay fresh."""
    if not request.user.is_authenticated:
        return None
    found = (
        Event.objects.reachable_by(request.user)
        .filter(pk=pk)
        .values_list("version", "phase", "paper_only")
        .first()
    )
    return None if found is None else console_etag(*found)


def console_etag(version: int, phase: str, paper_only: bool) -> str:
    if phase in BEFORE_PLAY and not paper_only:
        return f"{version}.{int(time.time() // REACHED_REFRESH_SECONDS)}"
    return str(version)


@require_GET
@etag_from_version(console_version)
@event_view()
def event_live(request: HttpRequest, event: Event) -> HttpResponse:
    """The live sections of the console whose key changed, swapped in by id out of band
    (polled; 304 when nothing changed)."""
    console = build_console(event)
    context = live_context(request, event, console)
    context["live"] = live_sections(request, console, live_keys(console))
    context["news"] = news(request.GET.get("heard"), console)
    return render(request, "organizer/event.html#live_update", context)
