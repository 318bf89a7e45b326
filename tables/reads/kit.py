"""The printed matter of the table kit, read from the database: each table's tent card,
rule sheet and players' guide, and the tally sheets of a round.

Terms:
    tent card   a page folded across its middle so it stands on the table: the big table
                number and the table's QR code on both halves, one half upside down, so
                it reads from both sides of the table.
    QR code     the table's phone link at the address phones can reach (the caller passes
                that base URL: the LAN address or the configured public URL, never localhost;
                tournament.common.network).
    rule sheet  the table's variant written out in full, with the exact deal for the
                number of players seated there now. Handed out for the study phase and
                taken away after it.
    players' guide
                the tournament explained on one page (tables.rules.players_guide): study, the
                silence, how games and rounds are won, who moves. The same at every table,
                it states no rules of play, so it may stay on the table.
    tally sheet one page per table and round, from the round's seating: the names (with
                the shortcut the console's entry form reads, tables.rules.tally), a grid with a
                row per game to tick its winner or write the tricks of the game cut off by
                the clock, and a small QR code to that table-round's entry form in the
                console (for the organizer, not the players).

Each table's pages are in its rule sheet's language. The pages that print them are the
organizer's (tournament.views.organizer.kit).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.urls import reverse
from django.utils import translation
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from tables.models import Table
from tables.reads.game_claims import uses_scoring_clause
from tables.reads.screens import TALLY_ROWS
from tables.rules.players_guide import PlayersGuide, players_guide
from tables.rules.rule_sheets import RuleSheet, rule_sheet
from tables.rules.tally import shortcuts
from tables.rules.variants import DECK_SIZE
from tournament.common.qr import qr_svg
from tournament.models import Event, Round, Seat
from tournament.rules.ordering import name_key


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
        # The same page at every table: it leaves the winner to the sheets as soon as the
        # event uses a scoring clause (one table wins a game with the fewest tricks).
        winner_by_sheet=uses_scoring_clause(event, tables),
        paper_only=event.paper_only,
    )
