"""The organizer's pages for one event: the console, a table's view, the close-round check,
a player's page and the corrections log.

Terms:
    console   ONE page per event; its *live* sections (phase, round panel, late reports,
              tables) refresh by polling, the others change only through the organizer's
              own actions. What the pages show is read by tournament.reads.console; the views
              here add what depends on the request: forms, messages, URLs, the ETag.
    section key  what one live section shows, as a short string (live_keys). The poller's
              URL carries the keys of the sections the page holds, so a changed poll sends
              back only the sections (and table cards) whose key differs: a report at one
              table re-renders that table's card, not the 125 others nor the phase.
"""

from __future__ import annotations

from functools import partial

from django.contrib.auth.decorators import login_required
from django.contrib.messages import get_messages
from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.utils.html import format_html
from django.utils.http import urlencode
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET

from tables.models import Game, GameCorrection, Table
from tournament.common.inputs import positive_int
from tournament.common.polling import clock_text, etag_from_version, poll_trigger, quoted_etag
from tournament.forms import (
    MovePlayerForm,
    RenameForm,
    RosterForm,
    SetVariantForm,
    TablePlanForm,
)
from tournament.models import Event, Phase, Player, Round, RoundStatus
from tournament.reads.console import (
    Console,
    build_close_check,
    build_console,
    build_table_view,
    optional_url,
)
from tournament.reads.debrief import table_timelines
from tournament.rules.table_plan import BEST_TABLE_SIZE, MAX_TABLE_SIZE, MIN_TABLE_SIZE
from tournament.views.organizer import owned_event, visible_version
from tournament.views.organizer_radar import radar_context
from tournament.views.records import records_panel

CORRECTIONS_PAGE_LIMIT = 1000


def clock_context(event: Event) -> dict:
    seconds = event.clock_seconds_left()
    return {
        "seconds_left": seconds,
        "clock_text": clock_text(seconds),
        "paused": event.clock_is_paused,
        "time_is_up": event.time_is_up(),
    }


def live_keys(console: Console) -> dict[str, str]:
    """The key of each live section (see Terms), from what the console already loaded.

    The phase section changes only with the event-wide version (shared_version), late
    reports also with their count and newest id, the frame of the tables section (heading,
    reprint warning, which tables there are) with shared_version and the reprints, and each
    table card with its own Table.version. The round panel is not keyed: it is small and
    follows every report, so each changed poll sends it.
    """
    event = console.event
    shared = event.shared_version
    late = console.late_reports
    return {
        "phase": str(shared),
        "late": f"{shared}.{len(late)}.{max((r.pk for r in late), default=0)}",
        "frame": f"{shared}.{'-'.join(map(str, console.reprint_numbers))}",
        "cards": ".".join(str(table.version) for table in console.tables),
        "notes": notes_key(console),
    }


def notes_key(console: Console) -> str:
    """Changes with any note written, changed, deleted or chosen, and with the phase."""
    notes = console.notes
    newest = max((note.updated_at.timestamp() for note in notes), default=0)
    chosen = sum(note.on_projector for note in notes)
    return f"{console.event.shared_version}.{len(notes)}.{newest:.6f}.{chosen}"


def live_url(event: Event, keys: dict[str, str]) -> str:
    return reverse("organizer:event_live", args=[event.pk]) + "?" + urlencode(keys)


def live_sections(request: HttpRequest, console: Console, keys: dict[str, str]) -> dict | None:
    """Which live sections a poll re-renders: those whose key differs from the one the page
    holds; None (all of them) when the poll carries no keys."""
    held = {name: request.GET.get(name) for name in keys}
    if not all(held.values()):
        return None
    cards_held = held["cards"].split(".")
    whole_tables = held["frame"] != keys["frame"] or len(cards_held) != len(console.cards)
    return {
        "phase": held["phase"] != keys["phase"],
        "late": held["late"] != keys["late"],
        "notes": held["notes"] != keys["notes"],
        "tables": whole_tables,
        "cards": []
        if whole_tables
        else [
            card
            for card, version in zip(console.cards, cards_held, strict=True)
            if version != str(card.table.version)
        ],
    }


def live_context(request: HttpRequest, event: Event, console: Console) -> dict:
    """What the live sections need (no forms: they are in sections that do not poll)."""
    keys = live_keys(console)
    return {
        "event": event,
        "c": console,
        "etag": quoted_etag(event.version),
        "poll_trigger": poll_trigger(),
        "live_url": live_url(event, keys),
        "timelines": SimpleLazyObject(partial(table_timelines, event)),
        **clock_context(event),
        "projector_url": optional_url("projector:screen", event.projector_token),
        "kit_url": optional_url("kit:event_kit", event.pk),
        "min_table_size": MIN_TABLE_SIZE,
        "max_table_size": MAX_TABLE_SIZE,
    }


def console_context(
    request: HttpRequest, event: Event, console: Console | None = None, **forms
) -> dict:
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
        "etag": quoted_etag(event.version),
        "poll_trigger": poll_trigger(),
        "live_url": live_url(event, live_keys(console)),
        # Lazy: read (five queries) only at the debrief, where the notes panel shows it.
        "timelines": SimpleLazyObject(partial(table_timelines, event)),
        **clock_context(event),
        **(radar_context(event) if event.phase == Phase.ROUND else {}),
        "projector_url": optional_url("projector:screen", event.projector_token),
        "kit_url": optional_url("kit:event_kit", event.pk),
        "best_table_size": BEST_TABLE_SIZE,
        "min_table_size": MIN_TABLE_SIZE,
        "max_table_size": MAX_TABLE_SIZE,
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
    }


@require_GET
@login_required
def event_console(request: HttpRequest, pk: int) -> HttpResponse:
    event = owned_event(request, pk)
    return render(request, "organizer/event.html", console_context(request, event))


@require_GET
@login_required
@etag_from_version(visible_version)
def event_live(request: HttpRequest, pk: int) -> HttpResponse:
    """The live sections of the console whose key changed, swapped in by id out of band
    (polled; 304 when nothing changed)."""
    event = owned_event(request, pk)
    console = build_console(event)
    context = live_context(request, event, console)
    context["live"] = live_sections(request, console, live_keys(console))
    return render(request, "organizer/event.html#live_update", context)


# --- one table ---------------------------------------------------------------------------


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
    return {
        "event": event,
        "table": table,
        "variant_label": view.variant_label,
        "round": view.round_,
        "rounds": view.rounds,
        "players": view.players,
        "games": view.games,
        "can_add": view.can_add,
        "here": here,
        "live_url": live_url,
        "etag": quoted_etag(event.version),
        "poll_trigger": poll_trigger(),
        "phone_url": optional_url("phone:table", table.token),
        **clock_context(event),
        "site_messages": list(get_messages(request)),
        "table_numbers": view.table_numbers,
    }


@require_GET
@login_required
def table_view(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    event = owned_event(request, pk)
    return render(request, "organizer/table.html", table_context(request, event, number))


@require_GET
@login_required
@etag_from_version(visible_version)
def table_live(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    event = owned_event(request, pk)
    return render(
        request, "organizer/table.html#live_update", table_context(request, event, number)
    )


# --- closing a round ---------------------------------------------------------------------


def running_clock_html(seconds: int, *, paused: bool) -> str:
    """The clock as clock.js counts it down, for a sentence that names the time left."""
    return format_html(
        '<span class="clock" data-clock-seconds="{}"{}><span data-clock-text>{}</span></span>',
        seconds,
        mark_safe(" data-clock-paused") if paused else "",
        clock_text(seconds),
    )


def close_context(request: HttpRequest, event: Event, round_: Round) -> dict:
    check = build_close_check(event, round_)
    number = round_.number
    clock = clock_context(event)
    return {
        "event": event,
        "round": round_,
        "preview": check.preview,
        "blocks": check.blocks,
        "disputes": check.disputes,
        "absent_notes": check.absent_notes,
        "unconfirmed_tables": check.unconfirmed_tables,
        "next_size_problems": check.next_size_problems,
        "min_table_size": MIN_TABLE_SIZE,
        "max_table_size": MAX_TABLE_SIZE,
        "etag": quoted_etag(check.preview.version),
        "poll_trigger": poll_trigger(),
        **clock,
        # Closing cuts off the games in play: worth a warning, not a refusal.
        "time_left_clock": (
            running_clock_html(clock["seconds_left"], paused=clock["paused"])
            if event.has_clock and not clock["time_is_up"] and clock["seconds_left"] > 0
            else None
        ),
        "live_url": reverse("organizer:close_round_live", args=[event.pk, number]),
        "here": reverse("organizer:close_round", args=[event.pk, number]),
        "site_messages": list(get_messages(request)),
        # Lazy: only the full page shows the Records section, so a live poll never reads
        # the backup folder.
        "records": SimpleLazyObject(partial(records_panel, event)),
    }


@require_GET
@login_required
def close_round_live(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    event = owned_event(request, pk)
    return _close_live(request, event, number)


@etag_from_version(lambda request, event, number: event.version)
def _close_live(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    round_ = get_object_or_404(Round, event=event, number=number)
    return render(
        request, "organizer/close_round.html#live_update", close_context(request, event, round_)
    )


# --- a player ----------------------------------------------------------------------------


def player_context(request: HttpRequest, event: Event, player_id: int, **forms) -> dict:
    player = get_object_or_404(Player, event=event, pk=player_id)
    seats = list(
        player.seats.select_related("round", "table", "from_table").order_by("round__number")
    )
    won = dict(
        Game.objects.counted()
        .filter(winner=player)
        .values_list("round_id")
        .annotate(n=Count("id"))
        .values_list("round_id", "n")
    )
    planned = event.rounds.filter(status=RoundStatus.PLANNED).order_by("number").first()
    return {
        "event": event,
        "player": player,
        "history": [(seat, won.get(seat.round_id, 0)) for seat in seats],
        "rename_form": forms.get("rename_form") or RenameForm(initial={"name": player.name}),
        "planned": planned,
        "table_numbers": list(event.tables.order_by("number").values_list("number", flat=True)),
        "site_messages": list(get_messages(request)),
        # Lazy: only the full page shows the Records section, so a live poll never reads
        # the backup folder.
        "records": SimpleLazyObject(partial(records_panel, event)),
    }


@require_GET
@login_required
def player_page(request: HttpRequest, pk: int, player_id: int) -> HttpResponse:
    event = owned_event(request, pk)
    return render(request, "organizer/player.html", player_context(request, event, player_id))


# --- the corrections log -----------------------------------------------------------------


@require_GET
@login_required
def corrections_log(request: HttpRequest, pk: int) -> HttpResponse:
    event = owned_event(request, pk)
    corrections = list(
        GameCorrection.objects.filter(round__event=event).select_related(
            "table", "round", "changed_by"
        )[:CORRECTIONS_PAGE_LIMIT]
    )
    return render(
        request,
        "organizer/corrections.html",
        {"event": event, "corrections": corrections, "limit": CORRECTIONS_PAGE_LIMIT},
    )
