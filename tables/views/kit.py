"""The printable table kit: one print job with a tent card, a rule sheet and the players'
guide per table.

Terms:
    tent card   a page folded across its middle so it stands on the table: the big table
                number and the table's QR code on both halves, one half upside down, so
                it reads from both sides of the table.
    QR code     the table's phone link at the address phones can reach (the LAN address
                or the configured public URL, never localhost; tournament.common.network).
    rule sheet  the table's variant written out in full, with the exact deal for the
                number of players seated there now. Handed out for the study phase and
                taken away after it.
    players' guide
                the tournament explained on one page (tables.players_guide): study, the
                silence, how games and rounds are won, who moves. The same at every table,
                it states no rules of play, so it may stay on the table.
    paper       A4 or US Letter; chosen with ?paper=, it sets the CSS page size.
    one table   ?table=N prints just that table: after the console gave it a new link
                (its old QR code stopped working), or when a card went missing.
    printed     opening this page counts as printing the tables it shows: each one records
                the variant and link on its paper (Table.mark_printed), in one UPDATE after
                the page is drawn. A GET that writes, on purpose: the page exists to print.
    reprint     ?reprint=1 prints only the tables whose variant or link changed since they
                were printed (Table.needs_reprint), the ones the console warns about.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET

from tables.models import Table
from tables.players_guide import PlayersGuide, players_guide
from tables.rule_sheets import RuleSheet, rule_sheet
from tables.variants import DECK_SIZE
from tournament.common.inputs import positive_int
from tournament.common.network import LOOPBACK_NAMES, public_base_url
from tournament.common.qr import qr_svg
from tournament.models import Event


@dataclass(frozen=True)
class Paper:
    code: str
    label: str
    css_size: str  # the CSS @page size
    width_mm: float
    height_mm: float


PAPERS = {
    paper.code: paper
    for paper in (
        Paper("a4", gettext_lazy("A4"), "A4 portrait", 210, 297),
        Paper("letter", gettext_lazy("US Letter"), "letter portrait", 215.9, 279.4),
    )
}
DEFAULT_PAPER = "a4"


@dataclass(frozen=True)
class KitTable:
    table: Table
    players: int
    url: str
    qr: SafeString
    sheet: RuleSheet

    @property
    def number_digits(self) -> int:
        return len(str(self.table.number))


def kit_tables(event: Event, base_url: str, tables: Iterable[Table]) -> list[KitTable]:
    """The printed matter of ``tables``, in the order given; two queries at any event size."""
    latest_round = event.rounds.order_by("-number").first()
    sizes = latest_round.table_sizes() if latest_round else {}
    kit = []
    for table in tables:
        players = sizes.get(table.number, 0)
        url = base_url + reverse("phone:table", args=[table.token])
        kit.append(
            KitTable(
                table=table,
                players=players,
                url=url,
                qr=qr_svg(url, label=_("Table %(number)s") % {"number": table.number}),
                sheet=rule_sheet(
                    table.variant,
                    players=players if 1 <= players <= DECK_SIZE else None,
                    translate=_,
                ),
            )
        )
    return kit


def event_guide(event: Event, tables: Iterable[Table] = ()) -> PlayersGuide:
    """The event's players' guide; ``tables`` are its tables, already loaded."""
    return players_guide(
        study_minutes=event.study_minutes,
        practice_minutes=event.practice_minutes,
        round_minutes=event.round_minutes,
        translate=_,
        # The same page at every table: it leaves the winner to the sheets as soon as one
        # table of the event wins a game with the fewest tricks.
        winner_by_sheet=event.winner_by_sheet or any(table.fewest_wins for table in tables),
    )


@require_GET
@login_required
def event_kit(request: HttpRequest, pk: int) -> HttpResponse:
    event = get_object_or_404(Event.objects.visible_to(request.user), pk=pk)
    paper = PAPERS.get(request.GET.get("paper", ""), PAPERS[DEFAULT_PAPER])
    only = positive_int(request.GET.get("table"))
    reprint = only is None and request.GET.get("reprint") == "1"
    base_url = public_base_url(request)
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
    response = render(
        request,
        "kit/kit.html",
        {
            "event": event,
            "paper": paper,
            "papers": PAPERS.values(),
            "kit": kit_tables(event, base_url, chosen),
            "guide": event_guide(event, tables),
            "base_url": base_url,
            "base_url_unreachable": urlsplit(base_url).hostname in LOOPBACK_NAMES,
            "only": only,
            "reprint": reprint,
            "selection": selection,
            "stale_numbers": [table.number for table in stale],
            "has_tables": bool(tables),
            "table_numbers": [table.number for table in tables],
        },
    )
    # Marked once the page is drawn: a page that failed to render printed nothing.
    Table.objects.mark_printed(chosen)
    return response
