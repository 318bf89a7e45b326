"""The printable table kit: one print job with a tent card, a rule sheet and the players'
guide per table; and the tally sheets of a round. What they print is read by
tables.reads.kit (its Terms define the tent card, QR code, rule sheet, guide and tally
sheet).

Terms:
    paper       A4 or US Letter; chosen with ?paper=, it sets the CSS page size.
    one table   ?table=N prints just that table: after the console gave it a new link
                (its old QR code stopped working), or when a card went missing.
    printed     opening the kit counts as printing the tables it shows: each one records
                the variant and link on its paper (Table.mark_printed), in one UPDATE after
                the page is drawn. A GET that writes, on purpose: the page exists to print.
                A finished event is read-only, so its kit prints and records nothing.
    reprint     ?reprint=1 prints only the tables whose variant or link changed since they
                were printed (Table.needs_reprint), the ones the console warns about.
    paper only  an event without phones (Event.paper_only): its tent cards carry no QR code
                and the kit adds each table's tally sheet for round 1. Tally sheets of a
                later round are printed after a close, from the console.

The kit carries every table's phone link, so it is the organizer's alone: a
co-facilitator gets 404 (tournament.views.access, organizer only).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET

from tables.models import Table
from tables.reads.kit import TallySheet, kit_tables, tally_sheets_for
from tournament.common.inputs import positive_int
from tournament.common.network import LOOPBACK_NAMES
from tournament.models import Event
from tournament.reads.room import phone_base_url, room_settings, wifi_join
from tournament.views.access import event_view

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise


@dataclass(frozen=True)
class Paper:
    """A paper size the kit prints on; static/css/kit.css sizes the pages for each code
    (body.paper-<code>), as a stylesheet may: the page carries no inline style."""

    code: str
    label: str | StrPromise


PAPERS = {
    paper.code: paper
    for paper in (Paper("a4", gettext_lazy("A4")), Paper("letter", gettext_lazy("US Letter")))
}
DEFAULT_PAPER = "a4"


@require_GET
@event_view(organizer_only=True)
def event_kit(request: HttpRequest, event: Event) -> HttpResponse:
    """Every table's pages (or ?table=N's, or ?reprint=1's), on ?paper=; the tables it
    shows count as printed (see Terms)."""
    paper = PAPERS.get(request.GET.get("paper", ""), PAPERS[DEFAULT_PAPER])
    only = positive_int(request.GET.get("table"))
    reprint = only is None and request.GET.get("reprint") == "1"
    room = room_settings(event)
    base_url = phone_base_url(room=room)
    tables = list(event.tables.order_by("number"))
    stale = [table for table in tables if table.needs_reprint]
    if only is not None:
        chosen = [table for table in tables if table.number == only]
        if not chosen:
            messages.error(request, _("There is no table %(number)s.") % {"number": only})
            return HttpResponseRedirect(reverse("kit:event_kit", args=[event.pk]))
    elif reprint:
        chosen = stale
    else:
        chosen = tables
    # Carried by the paper links, so switching paper keeps what is being printed.
    selection = f"&table={only}" if only is not None else ("&reprint=1" if reprint else "")
    kit = kit_tables(event, base_url, chosen, tables)
    tally = _kit_tally(event, base_url) if event.paper_only else {}
    response = render(
        request,
        "kit/kit.html",
        {
            "event": event,
            "paper": paper,
            "papers": PAPERS.values(),
            "kit": kit,
            "pages": [(item, tally.get(item.table.number)) for item in kit],
            "with_tally": bool(tally),  # a fourth page per table: "Four pages per table"
            "base_url": base_url,
            "wifi": None if event.paper_only else wifi_join(room),
            "base_url_unreachable": urlsplit(base_url).hostname in LOOPBACK_NAMES,
            "only": only,
            "reprint": reprint,
            "selection": selection,
            "stale_numbers": [table.number for table in stale],
            "has_tables": bool(tables),
            "table_numbers": [table.number for table in tables],
        },
    )
    # Marked once the page is drawn: a page that failed to render printed nothing. A
    # finished event is read-only (Event.finished_refusal): its GET writes nothing.
    if not event.is_finished:
        Table.objects.mark_printed(chosen)
    return response


def _kit_tally(event: Event, base_url: str) -> dict[int, TallySheet]:
    """A paper-only event's kit: each table's tally sheet for round 1, by table number."""
    first = event.rounds.filter(number=1).first()
    if first is None:
        return {}
    return {sheet.table_number: sheet for sheet in tally_sheets_for(event, first, base_url)}


@require_GET
@event_view(organizer_only=True)
def tally_sheets(request: HttpRequest, event: Event) -> HttpResponse:
    """The tally sheets of one round (?round=N, by default the round the tables play next
    or now), for every table or ?table=N, on ?paper= A4 or Letter."""
    paper = PAPERS.get(request.GET.get("paper", ""), PAPERS[DEFAULT_PAPER])
    asked = positive_int(request.GET.get("round"))
    rounds = event.rounds.order_by("-number")
    round_ = (rounds.filter(number=asked) if asked else rounds).first()
    if round_ is None:
        messages.error(request, _("Nobody is seated yet: make the table plan first."))
        return HttpResponseRedirect(reverse("organizer:event", args=[event.pk]))
    only = positive_int(request.GET.get("table"))
    base_url = phone_base_url(room=room_settings(event))
    selection = f"&round={round_.number}" + (f"&table={only}" if only else "")
    # Each sheet goes to its table, in that table's language (tally_sheets_for); the
    # page around them is the organizer's.
    sheets = tally_sheets_for(event, round_, base_url, only=only)
    return render(
        request,
        "kit/tally.html",
        {
            "event": event,
            "paper": paper,
            "papers": PAPERS.values(),
            "round": round_,
            "sheets": sheets,
            "selection": selection,
            "base_url_unreachable": urlsplit(base_url).hostname in LOOPBACK_NAMES,
        },
    )
