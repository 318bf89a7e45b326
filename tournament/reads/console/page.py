"""The organizer's console page, section by section, read in a constant number of queries.

Terms:
    console        ONE page per event with sections: phase and clock, the round panel
                   (close, undo), late reports, tables, roster, table plan, variants and
                   the corrections log (tournament.views.organizer.console renders it).
    seating round  the round whose seating the tables show: the planned round 1 before play,
                   the open round during a round, the next round between rounds (its seats
                   carry the moves), the last round at the debrief.
    results round  the round whose games the tables count: the open round, or the last one
                   played when no next seating exists.
    table card     one table on the console: its variant, its seats in the seating round,
                   and its games in the results round (reported, disputed, unconfirmed).
    reprint        a table whose printed kit is out of date: its variant or phone link
                   changed after the kit was printed (tables.models: needs reprint).

build_console loads players, tables, rounds, seats and games once each and joins them in
Python, so the page costs the same whatever the headcount.
"""

from __future__ import annotations

import zlib
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tables.models import (
    KEPT_FOR_THE_ORGANIZER,
    Game,
    GameCorrection,
    GameReport,
    GameStatus,
    ReportState,
    Table,
    variant_warnings,
)
from tables.rules.variants import clause_summary, variant_label
from tournament.models import (
    DebriefStep,
    Event,
    ObserverNote,
    PathsHighlight,
    Phase,
    Player,
    PlayerStatus,
    Round,
    RoundStatus,
    Seat,
    SeatReason,
    reason_label,
)
from tournament.reads.console.reached import (
    phones_reached,
    screens_reached,
    shows_phones_reached,
)
from tournament.reads.console.undo import undo_blocker, undo_note
from tournament.reads.debrief import DebriefProgress, debrief_progress
from tournament.reads.debrief_answers import Tally, shown_tally
from tournament.rules.ordering import name_key
from tournament.rules.table_plan import (
    MAX_TABLE_SIZE,
    MIN_TABLE_SIZE,
    TablePlan,
    size_problems,
    suggest_table_plan,
    table_count_options,
)

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise

CORRECTIONS_ON_CONSOLE = 8

MOVE_DIRECTIONS: dict[str, str] = {  # by str: Seat.reason reads as one
    SeatReason.MOVES_UP: "up",
    SeatReason.MOVES_DOWN: "down",
}


def optional_url(name: str, *args) -> str | None:
    """A URL of a page another part of the app provides, or None until it exists."""
    try:
        return reverse(name, args=args)
    except NoReverseMatch:
        return None


@dataclass
class SeatLine:
    """One player at one table of the seating round."""

    player_id: int
    name: str
    reason: str
    reason_label: str
    from_table: int | None
    games_before: int | None
    tie_broken: bool
    games: int | None = None  # games won in the results round, when it is shown

    @property
    def direction(self) -> str:
        return MOVE_DIRECTIONS.get(self.reason, "")


@dataclass
class TableCard:
    table: Table
    variant_label: str
    seats: list[SeatLine] = field(default_factory=list)
    reported: int = 0
    disputed: int = 0
    unconfirmed: int = 0
    phone_url: str | None = None
    # Phones that reached the table in the last minute, before play (reached); else None.
    phones_reached: int | None = None
    # At a screen event, before play: the seated players here by name, and the others
    # (tournament.reads.console.reached); else None and empty.
    screens_here: list[str] | None = None
    screens_away: list[str] = field(default_factory=list)

    @property
    def reached_key(self) -> str:
        """What the card's room check shows, for its live key (short: keys ride in URLs)."""
        if self.screens_here is None:
            return "" if self.phones_reached is None else f"p{self.phones_reached}"
        return f"s{len(self.screens_here)}.{zlib.crc32('|'.join(self.screens_here).encode()):x}"

    @property
    def number(self) -> int:
        return self.table.number

    @property
    def size_problem(self) -> bool:
        return bool(self.seats) and not MIN_TABLE_SIZE <= len(self.seats) <= MAX_TABLE_SIZE


@dataclass
class RosterLine:
    player: Player
    table_number: int | None


@dataclass
class Console:
    """Everything the console page shows, loaded in a fixed number of queries."""

    event: Event
    players: list[Player]
    tables: list[Table]
    rounds: list[Round]
    current: Round | None
    planned: Round | None
    seating_round: Round | None
    results: Round | None
    cards: list[TableCard]
    roster: list[RosterLine]
    late_reports: list[GameReport]
    corrections: list[GameCorrection]
    corrections_total: int
    undo_blocker: str | None
    last_closed: Round | None
    notes: list[ObserverNote] = field(default_factory=list)  # by table, then time

    @property
    def notes_by_table(self) -> list[tuple[int, list[ObserverNote]]]:
        """The observers' notes, top table first, each table's newest first."""
        grouped: dict[int, list[ObserverNote]] = {}
        for note in self.notes:
            grouped.setdefault(note.table_number, []).insert(0, note)
        return sorted(grouped.items(), reverse=True)

    @property
    def held_count(self) -> int:
        """How many of the reports kept for the organizer are held (the rest are late)."""
        return sum(report.state == ReportState.HELD for report in self.late_reports)

    # --- the debrief ---
    @cached_property
    def debrief_progress(self) -> DebriefProgress:
        """Where the projector stands in the debrief's running order: one query, made
        only when the page shows the debrief panel."""
        return debrief_progress(self.event)

    @cached_property
    def debrief_answers(self) -> Tally | None:
        """The room's answers to the question the projector shows, if it takes any
        (tournament.reads.debrief_answers): only when the page shows the debrief panel."""
        return shown_tally(self.event)

    @property
    def shows_paths(self) -> bool:
        return self.event.debrief_step == DebriefStep.PATHS

    @property
    def paths_highlight_choices(self) -> list[tuple[str, StrPromise]]:
        return PathsHighlight.choices

    # --- roster ---
    @property
    def present(self) -> list[Player]:
        return [p for p in self.players if p.status == PlayerStatus.PRESENT]

    @property
    def absent(self) -> list[RosterLine]:
        return [line for line in self.roster if line.player.status == PlayerStatus.ABSENT]

    @property
    def removed(self) -> list[Player]:
        return [p for p in self.players if p.status == PlayerStatus.REMOVED]

    @property
    def on_roster(self) -> list[RosterLine]:
        return [line for line in self.roster if line.player.status != PlayerStatus.REMOVED]

    @property
    def unseated_present(self) -> list[Player]:
        """Present players without a seat in the seating round (they join at the next close)."""
        seated = {line.player.pk for line in self.roster if line.table_number is not None}
        return [p for p in self.present if p.pk not in seated]

    @property
    def seated_choices(self) -> list[tuple[int, str]]:
        """(player id, name) of everyone seated in the seating round, alphabetically."""
        return sorted(
            ((seat.player_id, seat.name) for card in self.cards for seat in card.seats),
            key=lambda pair: name_key(pair[1]),
        )

    # --- table plan ---
    @property
    def plan_made(self) -> bool:
        return bool(self.tables) and any(r.number == 1 for r in self.rounds)

    @property
    def can_plan(self) -> bool:
        return self.event.phase == Phase.SETUP

    @property
    def suggestion(self) -> TablePlan | None:
        return suggest_table_plan(len(self.present))

    @property
    def plan_options(self) -> list[TablePlan]:
        return table_count_options(len(self.present))

    @property
    def seat_sizes(self) -> dict[int, int]:
        return {card.number: len(card.seats) for card in self.cards}

    @property
    def size_problems(self) -> list[tuple[int, int]]:
        if self.seating_round is None:
            return []
        return size_problems(self.seat_sizes)

    @property
    def planned_size_problems(self) -> list[tuple[int, int]]:
        """(table, players) outside 3..6 in the seating still to be played: moving a
        player can fix them. Tables of a round being played are what they are."""
        if self.seating_round is None or self.seating_round.status != RoundStatus.PLANNED:
            return []
        return self.size_problems

    # --- variants ---
    @property
    def variant_warnings(self) -> list[str]:
        return (
            variant_warnings(
                self.tables, self.event.trump_anytime_share, self.event.disruptive_share
            )
            if self.tables
            else []
        )

    @property
    def clause_summary(self) -> list[str]:
        """Where the draw put the event's new clauses, and why (tables.rules.variants)."""
        if not self.tables:
            return []
        plan = [table.variant for table in sorted(self.tables, key=lambda t: t.number)]
        return clause_summary(
            plan, self.event.draw_clauses, self.event.disruptive_share, _, ngettext
        )

    @property
    def reprint_numbers(self) -> list[int]:
        """Tables whose printed kit is out of date (new variant or new link since it was
        printed), from the tables already loaded."""
        return [table.number for table in self.tables if table.needs_reprint]

    @property
    def variants_locked(self) -> bool:
        """Players have seen their rules: a change needs the organizer's confirmation."""
        return self.event.phase != Phase.SETUP

    # --- phase ---
    @property
    def attention_total(self) -> int:
        return sum(card.disputed + card.unconfirmed for card in self.cards)

    @property
    def disputed_total(self) -> int:
        return sum(card.disputed for card in self.cards)

    @property
    def disputed_tables(self) -> list[TableCard]:
        """The tables with a disputed game waiting, each linked from the round's summary."""
        return [card for card in self.cards if card.disputed]

    @property
    def unconfirmed_total(self) -> int:
        return sum(card.unconfirmed for card in self.cards)

    @property
    def phones_reached_total(self) -> int | None:
        """Phones that reached any table in the last minute, before play; else None."""
        if not self.cards or self.cards[0].phones_reached is None:
            return None
        return sum(card.phones_reached or 0 for card in self.cards)

    @property
    def screens_here_total(self) -> tuple[int, int] | None:
        """At a screen event before play: (players here, players seated); else None."""
        if not self.cards or self.cards[0].screens_here is None:
            return None
        here = sum(len(card.screens_here or ()) for card in self.cards)
        return here, here + sum(len(card.screens_away) for card in self.cards)

    @property
    def reported_total(self) -> int:
        return sum(card.reported for card in self.cards)

    @property
    def tables_without_games(self) -> list[int]:
        return [card.number for card in self.cards if card.seats and not card.reported]

    # --- undo ---
    @property
    def undo_note(self) -> str:
        """Until when the last close can be undone (shown beside the undo button)."""
        return undo_note(self.event, self.last_closed, {r.number for r in self.rounds})


def seating_and_results(
    event: Event, current: Round | None, planned: Round | None
) -> tuple[Round | None, Round | None]:
    """The seating round and the results round (see Terms) for the event's phase."""
    if event.phase in (Phase.SETUP, Phase.STUDY, Phase.PRACTICE):
        return planned, None
    if event.phase == Phase.ROUND:
        return current, current
    if event.phase == Phase.BETWEEN_ROUNDS and planned is not None:
        return planned, None
    return current, current


def build_console(event: Event, *, corrections: int = CORRECTIONS_ON_CONSOLE) -> Console:
    players = sorted(event.players.all(), key=lambda p: name_key(p.name))
    tables = list(event.tables.order_by("number"))
    rounds = list(event.rounds.select_related("closed_by").order_by("number"))
    by_number = {r.number: r for r in rounds}
    current = by_number.get(event.round_number)
    planned = next((r for r in rounds if r.status == RoundStatus.PLANNED), None)
    seating_round, results = seating_and_results(event, current, planned)
    cards = {
        t.pk: TableCard(
            table=t,
            variant_label=variant_label(t.variant, _),
            phone_url=optional_url("phone:table", t.token),
        )
        for t in tables
    }
    if shows_phones_reached(event) and not event.on_screens:
        reached = phones_reached(event)
        for table_id, card in cards.items():
            card.phones_reached = reached.get(table_id, 0)
    wins = _count_games(cards, results) if results is not None else None
    table_of_player = _seat_cards(cards, seating_round, players, tables, wins)
    if shows_phones_reached(event) and event.on_screens:
        here = screens_reached(event)
        for card in cards.values():
            card.screens_here = [seat.name for seat in card.seats if seat.player_id in here]
            card.screens_away = [seat.name for seat in card.seats if seat.player_id not in here]
    closed = [r for r in rounds if r.status == RoundStatus.CLOSED]
    last_closed = closed[-1] if closed else None
    correction_rows = GameCorrection.objects.filter(round__event=event)
    return Console(
        event=event,
        players=players,
        tables=tables,
        rounds=rounds,
        current=current,
        planned=planned,
        seating_round=seating_round,
        results=results,
        cards=list(cards.values()),
        roster=[RosterLine(p, table_of_player.get(p.pk)) for p in players],
        late_reports=list(
            GameReport.objects.filter(round__event=event, state__in=KEPT_FOR_THE_ORGANIZER)
            .select_related("table", "winner", "round")
            .order_by("received_at", "pk")
        ),
        corrections=list(
            correction_rows.select_related("table", "round", "changed_by")[:corrections]
        ),
        corrections_total=correction_rows.count(),
        undo_blocker=undo_blocker(event, by_number, last_closed),
        last_closed=last_closed,
        notes=list(ObserverNote.objects.filter(event=event)),
    )


def _count_games(cards: dict[int, TableCard], results: Round) -> Counter[int]:
    """Count each card's games in the results round; returns the games each player won (a
    disputed game counts for nobody). One query."""
    wins: Counter[int] = Counter()
    for table_id, winner_id, status in Game.objects.filter(round=results).values_list(
        "table_id", "winner_id", "status"
    ):
        card = cards[table_id]
        card.reported += 1
        if status == GameStatus.DISPUTED:
            card.disputed += 1
        else:
            card.unconfirmed += status == GameStatus.UNCONFIRMED
            wins[winner_id] += 1
    return wins


def _seat_cards(
    cards: dict[int, TableCard],
    seating_round: Round | None,
    players: list[Player],
    tables: list[Table],
    wins: Counter[int] | None,
) -> dict[int, int]:
    """Fill each card's seats from the seating round, with the games won in the results
    round when there is one (``wins``); returns each seated player's table number. One
    query."""
    by_player = {p.pk: p for p in players}
    by_table = {t.pk: t for t in tables}
    table_of_player: dict[int, int] = {}
    if seating_round is not None:
        for seat in Seat.objects.filter(round=seating_round).values(
            "player_id", "table_id", "from_table_id", "reason", "games_won_before", "tie_broken"
        ):
            player = by_player[seat["player_id"]]
            from_table = by_table.get(seat["from_table_id"])
            cards[seat["table_id"]].seats.append(
                SeatLine(
                    player_id=player.pk,
                    name=player.name,
                    reason=seat["reason"],
                    reason_label=reason_label(seat["reason"], seat["games_won_before"]),
                    from_table=from_table.number if from_table else None,
                    games_before=seat["games_won_before"],
                    tie_broken=seat["tie_broken"],
                    games=wins.get(player.pk, 0) if wins is not None else None,
                )
            )
            table_of_player[player.pk] = by_table[seat["table_id"]].number
    for card in cards.values():
        if wins is not None:
            card.seats.sort(key=lambda s: (-(s.games or 0), name_key(s.name)))
        else:
            card.seats.sort(key=lambda s: name_key(s.name))
    return table_of_player
