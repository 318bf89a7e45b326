"""The table plan and the tables' variants: seat the players at a number of tables, deal
again, move one player; draw the variants again, use the classic set, set one table's.

Terms:
    table plan  who sits at which table in the planned round (tournament.writes.seating).
    confirmed   a variant changed after the players have seen their rules needs the
                organizer's "change it anyway" (tournament.views.organizer.answers).
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from tables.models import Table
from tables.rules.variants import variant_label
from tournament.common.errors import Refused
from tournament.common.inputs import positive_int
from tournament.common.requests import HtmxRequest
from tournament.forms import MovePlayerForm, SetVariantForm
from tournament.models import Event
from tournament.reads.console import build_console
from tournament.views.access import event_view
from tournament.views.organizer.answers import (
    confirmed,
    console_url,
    get_goes_to,
    refused_form,
    run_action,
)
from tournament.views.organizer.console import console_context
from tournament.views.organizer.roster import player_of
from tournament.writes.seating import (
    move_player,
    redraw_table_variant,
    redraw_variants,
    seat_players,
    set_table_variant,
    use_classic_variants,
)


def _plan_done(event: Event, table_count: int, *, reshuffled: bool) -> str:
    present = event.players.seatable().count()
    values = {"players": present, "tables": table_count}
    if reshuffled:
        return (
            ngettext(
                "Dealt again: %(players)s players at %(tables)s table.",
                "Dealt again: %(players)s players at %(tables)s tables.",
                table_count,
            )
            % values
        )
    return (
        ngettext(
            "Table plan made: %(players)s players at %(tables)s table, variants drawn.",
            "Table plan made: %(players)s players at %(tables)s tables, variants drawn.",
            table_count,
        )
        % values
    )


@require_POST
@event_view()
def plan_tables(request: HttpRequest, event: Event) -> HttpResponse:
    # seat_players refuses a count that does not fit the headcount, however large.
    table_count = positive_int(request.POST.get("table_count"))
    if table_count is None:
        messages.error(request, _("Choose a number of tables."))
        return redirect(console_url(event, "plan"))

    def plan() -> str:
        seat_players(event=event, table_count=table_count)
        return _plan_done(event, table_count, reshuffled=False)

    return run_action(request, plan, default=console_url(event, "plan"))


@require_POST
@event_view()
def plan_reshuffle(request: HttpRequest, event: Event) -> HttpResponse:
    table_count = event.tables.count()
    if not table_count:
        messages.error(request, _("Make the table plan first."))
        return redirect(console_url(event, "plan"))

    def reshuffle() -> str:
        seat_players(event=event, table_count=table_count, reshuffle=True)
        return _plan_done(event, table_count, reshuffled=True)

    return run_action(request, reshuffle, default=console_url(event, "plan"))


@get_goes_to(lambda pk: console_url(pk, "plan"))
@event_view()
def plan_move(request: HtmxRequest, event: Event) -> HttpResponse:
    console = build_console(event)
    form = MovePlayerForm(
        request.POST, players=console.seated_choices, tables=[t.number for t in console.tables]
    )
    if form.is_valid():
        player = player_of(event, form.cleaned_data["player"])
        table = get_object_or_404(Table, event=event, number=form.cleaned_data["table"])
        try:
            move_player(player=player, table=table)
        except Refused as refused:
            form.add_error(None, refused.message)
        else:
            messages.success(
                request,
                _("%(name)s moved to table %(table)s.")
                % {"name": player.name, "table": table.number},
            )
            return redirect(console_url(event, "plan"))
    return refused_form(
        request,
        "organizer/event.html",
        console_context(request, event, console, move_form=form),
        page_url=console_url(event, "plan"),
    )


# --- variants ----------------------------------------------------------------------------


@require_POST
@event_view()
def variants_redraw(request: HttpRequest, event: Event) -> HttpResponse:
    def redraw() -> str:
        redraw_variants(event=event, confirmed=confirmed(request))
        return _("Every table has a new variant.")

    return run_action(request, redraw, default=console_url(event, "variants"))


@require_POST
@event_view()
def variants_classic(request: HttpRequest, event: Event) -> HttpResponse:
    def use_classic() -> str:
        use_classic_variants(event=event, confirmed=confirmed(request))
        return _("The tables now play the classic set: the source tournament's rule sheets.")

    return run_action(request, use_classic, default=console_url(event, "variants"))


@require_POST
@event_view()
def table_variant(request: HttpRequest, event: Event) -> HttpResponse:
    """Redraw one table's variant, or set it by hand (variant "draw" means redraw)."""
    number = positive_int(request.POST.get("table"))
    table = Table.objects.filter(event=event, number=number).first() if number else None
    choice = request.POST.get("variant", "draw")
    form = SetVariantForm(request.POST)

    def change() -> str:
        if table is None:
            raise Refused(_("Choose a table."))
        table.event = event
        changed = table
        if choice == "draw":
            # The redraw saves a fresh copy of the table: `table` still has the old variant.
            changed = redraw_table_variant(table=table, confirmed=confirmed(request))
        elif not form.is_valid():
            raise Refused(_("Choose a variant from the list."))
        else:
            warnings = set_table_variant(
                table=table, variant=form.cleaned_data["variant"], confirmed=confirmed(request)
            )
            for warning in warnings:
                messages.warning(request, warning)
        return _("Table %(number)s now plays: %(variant)s.") % {
            "number": changed.number,
            "variant": variant_label(changed.variant, _),
        }

    return run_action(request, change, default=console_url(event, "variants"))
