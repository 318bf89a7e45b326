"""The roster: adding players' names, a player's page, and a player's status, name and
removal.

Terms:
    roster    the event's players; a removed player leaves it but keeps the rounds they
              played (tournament.writes.seating.remove_player).
    status    present or absent: an absent player is not seated when the next round is; a
              present one is seated at a table the organizer chooses, or the lowest.

Numbers in a POST (table, player) are read with tournament.common.inputs.positive_int:
anything else is refused with a message, never a server error.
"""

from __future__ import annotations

from functools import partial

from django.contrib import messages
from django.contrib.messages import get_messages
from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from tables.models import Game, Table
from tournament.common.errors import Refused
from tournament.common.inputs import positive_int
from tournament.common.requests import HtmxRequest
from tournament.forms import RenameForm, RosterForm
from tournament.models import Event, Player, PlayerStatus, RoundStatus
from tournament.reads.console import build_console
from tournament.views.access import event_view
from tournament.views.organizer.answers import console_url, get_goes_to, refused_form, run_action
from tournament.views.organizer.console import console_context
from tournament.views.organizer.records import records_panel
from tournament.writes.seating import (
    add_players,
    give_player_new_link,
    remove_player,
    rename_player,
    set_player_status,
)


@get_goes_to(lambda pk: console_url(pk, "roster"))
@event_view()
def roster_add(request: HtmxRequest, event: Event) -> HttpResponse:
    console = build_console(event)
    form = RosterForm(request.POST, request.FILES, event=event, players=console.players)
    if form.is_valid():
        try:
            added = add_players(event=event, names=form.accepted_names)
        except Refused as refused:
            form.add_error(None, refused.message)
        else:
            count = len(added.players)
            message = ngettext("Added %(count)s player.", "Added %(count)s players.", count) % {
                "count": count
            }
            messages.success(request, f"{message} {added.joining_note}".strip())
            return redirect(console_url(event, "roster"))
    return refused_form(
        request,
        "organizer/event.html",
        console_context(request, event, console, roster_form=form),
        page_url=console_url(event, "roster"),
    )


def player_of(event: Event, player_id: int) -> Player:
    """The event's player with this id (404 if it has none), its event loaded."""
    return get_object_or_404(Player.objects.select_related("event"), event=event, pk=player_id)


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
@event_view()
def player_page(request: HttpRequest, event: Event, player_id: int) -> HttpResponse:
    return render(request, "organizer/player.html", player_context(request, event, player_id))


@require_POST
@event_view()
def player_status(request: HttpRequest, event: Event, player_id: int) -> HttpResponse:
    player = player_of(event, player_id)
    status = request.POST.get("status")
    if status not in (PlayerStatus.PRESENT, PlayerStatus.ABSENT):
        messages.error(request, _("Choose present or absent."))
        return redirect(console_url(event, f"player-{player.pk}"))
    table = None
    if request.POST.get("table"):
        # An empty choice means the lowest table; a number must name one of the tables.
        number = positive_int(request.POST["table"])
        table = Table.objects.filter(event=event, number=number).first() if number else None
        if table is None:
            messages.error(request, _("Choose one of the tables, or the lowest table."))
            return redirect(console_url(event, f"player-{player.pk}"))

    def change() -> str:
        changed = set_player_status(player=player, status=status, table=table)
        planned, seat = changed.planned_round, changed.seat
        values: dict[str, object] = {"name": player.name}
        if status == PlayerStatus.ABSENT:
            if planned is not None:
                values["number"] = planned.number
                return _("%(name)s is absent: not seated in round %(number)s.") % values
            return _("%(name)s is absent: not seated when this round closes.") % values
        if seat is not None and planned is not None:  # a seat is always in the planned round
            values |= {"table": seat.table.number, "number": planned.number}
            return _("%(name)s is present: table %(table)s in round %(number)s.") % values
        return _("%(name)s is present: they join the lowest table when this round closes.") % values

    return run_action(request, change, default=console_url(event, f"player-{player.pk}"))


def _player_url(pk: int, player_id: int) -> str:
    return reverse("organizer:player", args=[pk, player_id])


@get_goes_to(_player_url)
@event_view()
def player_rename(request: HtmxRequest, event: Event, player_id: int) -> HttpResponse:
    player = player_of(event, player_id)
    form = RenameForm(request.POST)
    if form.is_valid():
        old = player.name
        try:
            rename_player(player=player, name=form.cleaned_data["name"])
        except Refused as refused:
            form.add_error("name", refused.message)
        else:
            messages.success(
                request, _("%(old)s is now %(new)s.") % {"old": old, "new": player.name}
            )
            return redirect(console_url(event, f"player-{player.pk}"))
    return refused_form(
        request,
        "organizer/player.html",
        player_context(request, event, player.pk, rename_form=form),
        page_url=_player_url(event.pk, player.pk),
    )


@require_POST
@event_view()
def player_remove(request: HttpRequest, event: Event, player_id: int) -> HttpResponse:
    player = player_of(event, player_id)
    name = player.name

    def remove() -> str:
        if remove_player(player=player):
            return _("%(name)s was deleted from the roster.") % {"name": name}
        return _("%(name)s was removed. The rounds they played keep their results.") % {
            "name": name
        }

    return run_action(request, remove, default=console_url(event, "roster"))


@require_POST
@event_view()
def player_new_link(request: HttpRequest, event: Event, player_id: int) -> HttpResponse:
    """A new personal link for a player (screen events): the old one stops working, and
    the seat goes to the first browser that opens the new one."""
    player = player_of(event, player_id)

    def renew() -> str:
        give_player_new_link(player=player)
        return _("%(name)s has a new link. The old one no longer works: send them the new one.") % {
            "name": player.name
        }

    links = reverse("organizer:player_links", args=[event.pk])
    return run_action(request, renew, default=f"{links}#player-{player.pk}")
