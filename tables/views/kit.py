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
                the tournament explained on one page (tables.rules.players_guide): study, the
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
    paper only  an event without phones (Event.paper_only): its tent cards carry no QR code
                and the kit adds each table's tally sheet for round 1.
    tally sheet one page per table and round, from the round's seating: the names (with
                the shortcut the console's entry form reads, tables.rules.tally), a grid with a
                row per game to tick its winner or write the tricks of the game cut off by
                the clock, and a small QR code to that table-round's entry form in the
                console (for the organizer, not the players). Printed from the kit (round
                1) or, after a close, for the next round from the console.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import translation
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET

from tables.models import Table
from tables.reads.screens import TALLY_ROWS
from tables.rules.players_guide import PlayersGuide, players_guide
from tables.rules.rule_sheets import RuleSheet, rule_sheet
from tables.rules.tally import shortcuts
from tables.rules.variants import DECK_SIZE
from tournament.common.inputs import positive_int
from tournament.common.network import LOOPBACK_NAMES, public_base_url
from tournament.common.qr import qr_svg
from tournament.models import Event, Round, Seat
from tournament.rules.ordering import name_key


@dataclass(frozen=True)
class Paper:
    """A paper size the kit prints on; static/css/kit.css sizes the pages for each code
    (body.paper-<code>), as a stylesheet may: the page carries no inline style."""

    code: str
    label: str


PAPERS = {
    paper.code: paper
    for paper in (Paper("a4", gettext_lazy("A4")), Paper("letter", gettext_lazy("US Letter")))
}
DEFAULT_PAPER = "a4"


@dataclass(frozen=True)
class KitTable:
    """One table's pages, all in its rule sheet's language: tent card, rule sheet, guide."""

    table: Table
    players: int
    url: str
    qr: SafeString
    sheet: RuleSheet
    language: str
    guide: PlayersGuide

    @property
    def number_digits(self) -> int:
        return len(str(self.table.number))


def kit_tables(
    event: Event, base_url: str, tables: Iterable[Table], all_tables: Sequence[Table]
) -> list[KitTable]:
    """The printed matter of ``tables``, in the order given, each in its sheet's language;
    ``all_tables`` (the event's, loaded) decide the players' guide. Two queries at any
    event size."""
    latest_round = event.rounds.order_by("-number").first()
    sizes = latest_round.table_sizes() if latest_round else {}
    guides: dict[str, PlayersGuide] = {}
    kit = []
    for table in tables:
        players = sizes.get(table.number, 0)
        url = base_url + reverse("phone:table", args=[table.token])
        language = table.rule_sheet_language
        with translation.override(language):
            if language not in guides:
                guides[language] = event_guide(event, all_tables)
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
                    language=language,
                    guide=guides[language],
                )
            )
    return kit


@dataclass(frozen=True)
class TallySheet:
    """One table's tally sheet for a round, in its table's sheet language."""

    table_number: int
    round_number: int
    language: str
    names: list[tuple[str, str]]  # (name, shortcut), alphabetically
    url: str
    qr: SafeString
    rows: range


def tally_sheets_for(
    event: Event, round_: Round, base_url: str, *, only: int | None = None
) -> list[TallySheet]:
    """One tally sheet per table of ``round_`` (or just table ``only``), each in its
    table's sheet language; one query."""
    seated: dict[int, list[str]] = {}
    languages: dict[int, str] = {}
    seats = Seat.objects.filter(round=round_).values_list(
        "table__number", "player__name", "table__sheet_language"
    )
    if only is not None:
        seats = seats.filter(table__number=only)
    for number, name, language in seats.order_by("table__number"):
        seated.setdefault(number, []).append(name)
        languages[number] = language or event.language
    sheets = []
    for number, names in seated.items():
        names.sort(key=name_key)
        codes = shortcuts(names)
        url = base_url + reverse("organizer:paper_entry", args=[event.pk, number, round_.number])
        with translation.override(languages[number]):
            label = _("Table %(table)s, round %(round)s") % {
                "table": number,
                "round": round_.number,
            }
        sheets.append(
            TallySheet(
                table_number=number,
                round_number=round_.number,
                language=languages[number],
                names=[(name, codes[name]) for name in names],
                url=url,
                qr=qr_svg(url, label=label),
                rows=range(1, TALLY_ROWS + 1),
            )
        )
    return sheets


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


def _kit_tally(event: Event, base_url: str) -> dict[int, TallySheet]:
    """A paper-only event's kit: each table's tally sheet for round 1, by table number."""
    first = event.rounds.filter(number=1).first()
    if first is None:
        return {}
    return {sheet.table_number: sheet for sheet in tally_sheets_for(event, first, base_url)}


@require_GET
@login_required
def tally_sheets(request: HttpRequest, pk: int) -> HttpResponse:
    """The tally sheets of one round (?round=N, by default the round the tables play next
    or now), for every table or ?table=N, on ?paper= A4 or Letter."""
    event = get_object_or_404(Event.objects.visible_to(request.user), pk=pk)
    paper = PAPERS.get(request.GET.get("paper", ""), PAPERS[DEFAULT_PAPER])
    asked = positive_int(request.GET.get("round"))
    rounds = event.rounds.order_by("-number")
    round_ = (rounds.filter(number=asked) if asked else rounds).first()
    if round_ is None:
        messages.error(request, _("Nobody is seated yet: make the table plan first."))
        return HttpResponseRedirect(reverse("organizer:event", args=[event.pk]))
    only = positive_int(request.GET.get("table"))
    base_url = public_base_url(request)
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
