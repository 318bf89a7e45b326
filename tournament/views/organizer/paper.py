"""Typing in a table's paper tally sheet: one form per table-round, one row per game.

Terms:
    tally sheet  the paper a table without phones fills in (printed with the kit, or after a
                 close from the moves screen; tournament.views.organizer.kit.tally_sheets).
    entry form   this page: the seated names with the shortcut printed under each, and a
                 text box per game for the winner (or the tricks of a game cut off by the
                 clock; tables.rules.tally). Plain HTML: Tab moves to the next game, Enter saves
                 the whole table-round at once (tables.writes.corrections.enter_paper_tally).
    kept rows    when a row is wrong nothing is saved, and the page comes back with every
                 row as typed and each problem beside its row, ready to fix and save again.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from tables.forms import tally_entries
from tables.models import Table
from tables.reads.screens import paper_entry_screen
from tables.writes.corrections import PaperEntry, enter_paper_tally
from tournament.common.errors import Refused
from tournament.common.inputs import positive_int
from tournament.models import Event, Round
from tournament.views.access import EventRequest, event_view


def _table_round(event: Event, number: int, round_number: int) -> tuple[Table, Round]:
    table = get_object_or_404(Table, event=event, number=number)
    round_ = get_object_or_404(Round, event=event, number=round_number)
    return table, round_


def _render(
    request: EventRequest,
    event: Event,
    table: Table,
    round_: Round,
    *,
    rows: int = 0,
    typed: dict[int, str] | None = None,
    entry: PaperEntry | None = None,
    status: int = 200,
) -> HttpResponse:
    screen = paper_entry_screen(round_, table, rows=max(rows, max(typed or {0: ""}, default=0)))
    errors = {row.number: row.errors for row in entry.rows} if entry else {}
    typed = typed or {}
    # The first refused row takes the focus (autofocus, so also without JavaScript).
    first_error = min((number for number, found in errors.items() if found), default=None)
    return render(
        request,
        "organizer/paper_entry.html",
        {
            "event": event,
            "table": table,
            "round": round_,
            "screen": screen,
            "lines": [
                (line, typed.get(line.number, ""), errors.get(line.number, []))
                for line in screen.lines
            ],
            "error_count": sum(1 for row_errors in errors.values() if row_errors),
            "first_error": first_error,
            "more_rows": len(screen.lines) + 12,
        },
        status=status,
    )


@require_GET
@event_view(may="assist")
def paper_entry(
    request: EventRequest, event: Event, number: int, round_number: int
) -> HttpResponse:
    table, round_ = _table_round(event, number, round_number)
    return _render(request, event, table, round_, rows=positive_int(request.GET.get("rows")) or 0)


@require_POST
@event_view(may="assist")
def paper_save(request: EventRequest, event: Event, number: int, round_number: int) -> HttpResponse:
    table, round_ = _table_round(event, number, round_number)
    typed = tally_entries(request.POST)
    if typed is None:
        raise Http404
    try:
        entry = enter_paper_tally(round_=round_, table=table, entries=typed, by=request.user)
    except Refused as refused:
        messages.error(request, str(refused))
        return _render(request, event, table, round_, typed=typed, status=409)
    if not entry.saved:
        return _render(request, event, table, round_, typed=typed, entry=entry, status=422)
    stored = entry.recorded + entry.confirmed + entry.disputed
    if stored:
        text = ngettext(
            "Table %(table)s, round %(round)s: %(count)s game typed in from paper.",
            "Table %(table)s, round %(round)s: %(count)s games typed in from paper.",
            stored,
        ) % {"table": table.number, "round": round_.number, "count": stored}
        if entry.disputed:
            text += " " + ngettext(
                "%(count)s game disagrees with a phone: settle it below.",
                "%(count)s games disagree with a phone: settle them below.",
                entry.disputed,
            ) % {"count": entry.disputed}
        messages.success(request, text)
    else:
        messages.info(request, _("Nothing new to save: every row was empty or already saved."))
    return HttpResponseRedirect(
        reverse("organizer:table", args=[event.pk, table.number]) + f"?round={round_.number}"
    )
