"""What the projector shows, read from the database in a constant number of queries.

Terms:
    screen    what the projector shows now: one per phase (setup, study, practice, a
              round, the moves between rounds, the final results after the last round,
              the debrief, and the tables' rules once revealed), or the room's ladder
              when asked for.
    group     rows under one table number: the players at a table and their games this
              round, the players leaving a table (moves), or the players now at a table
              (ladder).
    board     a screen's groups laid out in columns, and in pages when they do not fit on
              one screen; tournament.rules.board_layout lays it out (and defines its column,
              line, fragment and layout).
    mark      the symbol beside a move: a filled arrow moves up or down, a hollow one stays
              at the top or bottom table, ● stays. ★ after the games says a tie in games,
              broken alphabetically, decided the move: the same star as on the organizer
              console.
    page      what the projector shows at once; it pages through the rest by itself.
    row       one player on a board. Standing and ladder rows are plain (board_layout);
              a move row stays here because its label is the seat reason's, a model choice.
    ladder    every player's current table, top table first, and their *climb*: current
              table number minus home table number (round 1); +2 is two tables higher.
    reveal    at the debrief the organizer reveals every table's rules
              (Event.rules_revealed), or one table's at a time (Table.revealed). Before
              that the projector shows no variant at all: no ace high or low, no trump
              suit, no suit symbol.
    debrief   the organizer steps the projector through its screens (Event.debrief_step,
              tournament.models.DebriefStep): the ladder, where games were disputed,
              which rules met (tournament.rules.clash: the kind of difference, never whose
              rules), every player's path, the moves between tables, the final results,
              the reveal. The charts are SVG from tournament.rules.charts.
    highlight ?highlight=climbers, or a number, on the paths screen: that many players who
              climbed or fell furthest are drawn bold and named, the rest thin and grey.
              With many players a few are highlighted anyway. Without ?highlight the
              organizer's choice on the console counts (Event.paths_highlight).
    question  one of the event's debrief questions, large, with its stage and its number
              (tournament.reads.debrief: slide). It shows the organizer's words and nothing of
              the game, so it is safe before the reveal.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from enum import StrEnum

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from tables.models import Game, Table
from tables.rules.variants import Suit, direction_label, rule_lines, suit_name, variant_label
from tournament.common.i18n import gettext_noop
from tournament.common.polling import clock_text
from tournament.models import DebriefStep, Event, Phase, Round, Seat, SeatReason
from tournament.reads.debrief import (
    Slide,
    TableTimeline,
    build_debrief,
    debrief_progress,
    table_timelines,
)
from tournament.rules import charts
from tournament.rules.board_layout import Board, Group, LadderRow, StandingRow, lay_out
from tournament.rules.clash import legend_kinds
from tournament.rules.ordering import name_key, rank_players


class ScreenKind(StrEnum):
    SETUP = "setup"
    STUDY = "study"
    PRACTICE = "practice"
    ROUND = "round"
    MOVES = "moves"
    FINAL = "final"
    DEBRIEF = "debrief"
    DISPUTES = "disputes"
    CLASHES = "clashes"
    PATHS = "paths"
    FLOW = "flow"
    RULES = "rules"
    QUESTION = "question"
    LADDER = "ladder"


class View(StrEnum):
    """What a projector link asks for: the phase's screen, or the room's ladder."""

    STAGE = "stage"
    LADDER = "ladder"

    @classmethod
    def parse(cls, value: str | None) -> View:
        try:
            return cls(value or cls.STAGE)
        except ValueError:
            return cls.STAGE


# --- the moves screen's rows: marks for the seat reasons ---------------------------


@dataclass(frozen=True)
class ReasonMark:
    """How a reason looks on the moves screen: a symbol and a colour (CSS class)."""

    symbol: str
    tone: str


# Filled arrows move a player; the hollow ones say the arrow would have, but there is no
# table further that way. ★ is kept for a tie broken by name, as on the organizer console.
_REASON_MARKS: dict[str, ReasonMark] = {
    SeatReason.MOVES_UP: ReasonMark("▲", "up"),
    SeatReason.MOVES_DOWN: ReasonMark("▼", "down"),
    SeatReason.STAYS_AT_TOP: ReasonMark("△", "top"),
    SeatReason.STAYS_AT_BOTTOM: ReasonMark("▽", "bottom"),
    SeatReason.STAYS: ReasonMark("●", "stay"),
    SeatReason.HOME: ReasonMark("●", "stay"),
    SeatReason.RETURNING: ReasonMark("+", "back"),
    SeatReason.JOINING: ReasonMark("+", "new"),
    SeatReason.PLACED: ReasonMark("◆", "placed"),
}
# The legend lists reasons in the order a player reads a table: up, stays, down.
_LEGEND_ORDER = [
    SeatReason.MOVES_UP,
    SeatReason.STAYS_AT_TOP,
    SeatReason.STAYS,
    SeatReason.STAYS_AT_BOTTOM,
    SeatReason.MOVES_DOWN,
    SeatReason.RETURNING,
    SeatReason.JOINING,
    SeatReason.PLACED,
]
TIE_MARK = ReasonMark("★", "tie")
# Only where the order by name, not the games, sent a player up, down or kept them
# (tournament.rules.movement sets tie_broken). The rows of the moves board say it too.
TIE_WORDS = gettext_noop("a tie in games, broken alphabetically, decided this move")


@dataclass(frozen=True)
class MoveRow:
    """One player between rounds: the table they leave, the one they go to, and why."""

    name: str
    games: int | None
    from_table: int | None
    to_table: int
    reason: str
    tie_broken: bool

    @property
    def mark(self) -> ReasonMark:
        return _REASON_MARKS.get(self.reason, _REASON_MARKS[SeatReason.STAYS])

    @property
    def reason_label(self) -> str:
        return SeatReason(self.reason).label

    @property
    def tie_mark(self) -> ReasonMark | None:
        return TIE_MARK if self.tie_broken else None


# --- reading the event --------------------------------------------------------------


def round_standings(event: Event, round_: Round) -> Board:
    """Every table's players in the table's order, with the games they won so far.

    A disputed game counts for nobody (see Round.games_won_by_table). Three queries.
    """
    round_.event = event  # already loaded: spare games_won_by_table a query
    by_table = round_.games_won_by_table()
    top = max(by_table, default=None)
    return lay_out(
        (
            Group(
                number,
                tuple(StandingRow(name, games[name]) for name in rank_players(games)),
                top=number == top,
            )
            for number, games in sorted(by_table.items())
        ),
        "standings",
    )


def moves_board(event: Event, round_number: int) -> tuple[Board, list[ReasonMark]]:
    """The seats of round_number grouped by the table each player leaves, in table order.

    Within a table, players appear in the table's order of the round just played (most
    games first), so the movers up lead and the movers down close. One query.
    """
    seats = Seat.objects.filter(round__event=event, round__number=round_number).values_list(
        "player__name",
        "from_table__number",
        "table__number",
        "reason",
        "games_won_before",
        "tie_broken",
    )
    by_table: dict[int | None, list[MoveRow]] = defaultdict(list)
    for name, from_table, to_table, reason, games, tie_broken in seats:
        by_table[from_table].append(MoveRow(name, games, from_table, to_table, reason, tie_broken))
    # Players with no table left (back from a break) come last.
    order = sorted(by_table, key=lambda number: (number is None, number or 0))
    top = max((number for number in by_table if number is not None), default=None)
    groups = [
        Group(
            number,
            tuple(sorted(by_table[number], key=lambda r: (-(r.games or 0), name_key(r.name)))),
            top=number is not None and number == top,
        )
        for number in order
    ]
    return lay_out(groups, "moves"), _legend(by_table.values())


@dataclass(frozen=True)
class LegendEntry:
    mark: ReasonMark
    label: str


def _legend(rows_by_table: Iterable[list[MoveRow]]) -> list[LegendEntry]:
    rows = [row for rows in rows_by_table for row in rows]
    present = {row.reason for row in rows}
    entries = [
        LegendEntry(_REASON_MARKS[reason], SeatReason(reason).label)
        for reason in _LEGEND_ORDER
        if reason in present
    ]
    if any(row.tie_broken for row in rows):
        entries.append(LegendEntry(TIE_MARK, _(TIE_WORDS)))
    return entries


def ladder_board(event: Event, *, final: bool = False) -> Board:
    """Every player's table in the latest seating, top table first, and their climb.

    final: the latest round was the last one played, so players are ordered at their
    table by its games (the table's order) and the games are shown; otherwise by name.
    Two queries at most.
    """
    numbers = {1, event.round_number, event.round_number + 1} - {0}
    seats = list(
        Seat.objects.filter(round__event=event, round__number__in=numbers).values_list(
            "round__number", "player_id", "player__name", "table__number"
        )
    )
    if not seats:
        return lay_out((), "ladder")
    latest = max(number for number, *_rest in seats)
    home = {player_id: table for number, player_id, _name, table in seats if number == 1}
    wins: Counter[int] = Counter()
    if final:
        wins = Counter(
            Game.objects.counted()
            .filter(round__event=event, round__number=latest)
            .values_list("winner_id", flat=True)
        )
    by_table: dict[int, list[LadderRow]] = defaultdict(list)
    for number, player_id, name, table in seats:
        if number != latest:
            continue
        climb = table - home[player_id] if player_id in home else None
        games = wins.get(player_id, 0) if final else None
        by_table[table].append(LadderRow(name, table, climb, games))

    def order(row: LadderRow) -> tuple:
        return (-(row.games or 0), name_key(row.name)) if final else (name_key(row.name),)

    top = max(by_table)
    return lay_out(
        (
            Group(number, tuple(sorted(by_table[number], key=order)), top=number == top)
            for number in sorted(by_table, reverse=True)
        ),
        "ladder",
    )


@dataclass(frozen=True)
class RuleCard:
    """One table's revealed variant, in big pieces and as one line."""

    table: int
    label: str
    direction: str
    ace_high: bool
    suit: str
    symbol: str
    red: bool
    trump_anytime: bool
    lines: tuple[str, ...] = ()
    no_trump: bool = False

    @property
    def extras(self) -> tuple[str, ...]:
        """The lines after direction and trump: one per clause (trump any time, trumps
        broken, must play higher, fewest tricks wins)."""
        return self.lines[2:]


NO_TRUMP_SYMBOL = "∅"


@dataclass(frozen=True)
class RulePage:
    """Cards in a grid of columns x rows; every page of an event has the same grid."""

    cards: tuple[RuleCard, ...]
    columns: int
    rows: int

    @property
    def first_table(self) -> int:
        return self.cards[0].table

    @property
    def last_table(self) -> int:
        return self.cards[-1].table

    @property
    def has_anytime(self) -> bool:
        """Some card says "trump any time"."""
        return any(card.trump_anytime for card in self.cards)

    @property
    def has_extras(self) -> bool:
        """Some card has a clause line: every card keeps a line for them."""
        return any(card.extras for card in self.cards)

    @property
    def many_extras(self) -> bool:
        """Some card has two clause lines or more: the page gives them more room."""
        return any(len(card.extras) > 1 for card in self.cards)


# The cards share the area under the title, about 173 x 88 rem of a 16:9 screen. A card a
# little wider than high reads best; a grid with empty cells looks unfinished, so a cell
# left empty costs as much as a card a good deal too narrow or too wide.
RULES_AREA_RATIO = 173 / 88
RULE_CARD_RATIO = 1.5
EMPTY_CELL_COST = 0.6
RULES_MAX_COLUMNS = 5
RULES_MAX_ROWS = 4
RULES_PER_PAGE = RULES_MAX_COLUMNS * RULES_MAX_ROWS  # beyond this the pages go by


def rule_grid(cards: int) -> tuple[int, int]:
    """Columns and rows for this many cards on one page: cards of a pleasant shape that
    fill the screen, with as few empty cells as that allows."""
    cards = max(1, min(cards, RULES_PER_PAGE))

    def cost(grid: tuple[int, int]) -> float:
        columns, rows = grid
        card_ratio = RULES_AREA_RATIO * rows / columns
        return abs(math.log(card_ratio / RULE_CARD_RATIO)) + EMPTY_CELL_COST * (
            columns * rows - cards
        )

    grids = [
        (columns, math.ceil(cards / columns))
        for columns in range(1, RULES_MAX_COLUMNS + 1)
        if math.ceil(cards / columns) <= RULES_MAX_ROWS
    ]
    return min(grids, key=cost)


def revealed_rules(event: Event, *, every: bool = True) -> list[RulePage]:
    """Every table's variant, or (every=False) those revealed one by one (Table.revealed),
    in pages of cards; only for after the reveal. One query."""
    cards = []
    tables = Table.objects.filter(event=event).order_by("number")
    if not every:
        tables = tables.filter(revealed=True)
    for table in tables:
        variant = table.variant
        cards.append(
            RuleCard(
                table=table.number,
                label=variant_label(variant, _),
                direction=direction_label(variant, _),
                ace_high=variant.ace_high,
                suit=suit_name(variant.trump, _),
                # A no-trump table shows an empty set where the trump's symbol would be.
                symbol=NO_TRUMP_SYMBOL if variant.no_trump else variant.trump.symbol,
                red=not variant.no_trump and variant.trump in (Suit.HEARTS, Suit.DIAMONDS),
                trump_anytime=variant.trump_anytime,
                lines=tuple(rule_lines(variant, _)),
                no_trump=variant.no_trump,
            )
        )
    if not cards:
        return []
    # The first page decides the grid: cards keep their size while the pages go by.
    columns, rows = rule_grid(len(cards))
    return [
        RulePage(tuple(cards[i : i + RULES_PER_PAGE]), columns, rows)
        for i in range(0, len(cards), RULES_PER_PAGE)
    ]


# --- the screen ---------------------------------------------------------------------


@dataclass(frozen=True)
class Clock:
    """The phase's clock as the projector shows it.

    paused: stopped with time left. A clock paused once time was up shows time up alone:
    the room needs "Time!", not a pause that changes nothing.
    """

    seconds_left: int
    paused: bool

    @classmethod
    def of(cls, event: Event) -> Clock | None:
        seconds = event.clock_seconds_left()
        if seconds is None:
            return None
        return cls(seconds, paused=event.clock_is_paused and seconds > 0)

    @property
    def time_up(self) -> bool:
        return self.seconds_left <= 0

    @property
    def text(self) -> str:
        return clock_text(self.seconds_left)


@dataclass(frozen=True)
class Screen:
    kind: ScreenKind
    event: Event
    view: View
    clock: Clock | None = None
    board: Board | None = None
    legend: list[LegendEntry] = field(default_factory=list)
    rule_pages: list[RulePage] = field(default_factory=list)
    next_round: int | None = None
    final_round: int | None = None  # the last round, once played: the ladder shows its games
    debrief_step: int | None = None
    chart: SafeString | None = None  # SVG from tournament.rules.charts, names escaped there
    sentence: str = ""
    kind_legend: list[LegendEntry] = field(default_factory=list)
    question: Slide | None = None  # the debrief question shown; None when it is gone
    # The observers' notes the organizer chose, each table's beside its disputes and
    # clashes (tournament.reads.debrief.table_timelines); a note not chosen never shows here.
    timelines: list[TableTimeline] = field(default_factory=list)

    @property
    def time_up(self) -> bool:
        return self.clock is not None and self.clock.time_up


def _ladder_screen(kind: ScreenKind, event: Event, view: View) -> Screen:
    played_out = (
        event.phase in (Phase.BETWEEN_ROUNDS, Phase.DEBRIEF)
        and event.is_last_round
        and event.round_number > 0
    )
    return Screen(
        kind,
        event,
        view,
        board=ladder_board(event, final=played_out),
        final_round=event.round_number if played_out else None,
    )


def build_screen(event: Event, view: View = View.STAGE, highlight: str | None = None) -> Screen:
    """Everything one screen shows, for the event's phase (or the ladder when asked)."""
    clock = Clock.of(event)
    if view == View.LADDER:
        return _ladder_screen(ScreenKind.LADDER, event, view)
    if event.phase == Phase.STUDY:
        return Screen(ScreenKind.STUDY, event, view, clock=clock)
    if event.phase == Phase.PRACTICE:
        return Screen(ScreenKind.PRACTICE, event, view, clock=clock)
    if event.phase == Phase.ROUND:
        round_ = event.rounds.filter(number=event.round_number).first()
        board = round_standings(event, round_) if round_ else lay_out((), "standings")
        return Screen(ScreenKind.ROUND, event, view, clock=clock, board=board)
    if event.phase == Phase.BETWEEN_ROUNDS:
        if event.is_last_round:
            return _ladder_screen(ScreenKind.FINAL, event, view)
        next_round = event.round_number + 1
        board, legend = moves_board(event, next_round)
        return Screen(
            ScreenKind.MOVES, event, view, board=board, legend=legend, next_round=next_round
        )
    if event.phase == Phase.DEBRIEF:
        return debrief_screen(event, view, highlight)
    return Screen(ScreenKind.SETUP, event, view)


# Paths drawn bold when the screen is asked for "climbers", and when there are so many
# players that every path in colour would be a tangle.
HIGHLIGHT_CLIMBERS = 6
MANY_PATHS = 40


def highlight_count(value: str | None, players: int) -> int:
    """How many paths ?highlight= asks to draw bold: "climbers", a number, or none (then
    a few only when there are many players); 0 draws every path alike."""
    if value == "climbers":
        return HIGHLIGHT_CLIMBERS
    if value and value.isdigit():
        return min(int(value), players)
    return HIGHLIGHT_CLIMBERS if players > MANY_PATHS else 0


def debrief_screen(event: Event, view: View, highlight: str | None = None) -> Screen:
    """The debrief screen the organizer stepped to. No chart names a variant."""
    step = event.debrief_step
    if step == DebriefStep.QUESTION:
        shown = debrief_progress(event).shown
        return Screen(ScreenKind.QUESTION, event, view, debrief_step=step, question=shown)
    if step == DebriefStep.OPENING:
        return replace(_ladder_screen(ScreenKind.DEBRIEF, event, view), debrief_step=step)
    if step == DebriefStep.RESULTS:
        return replace(_ladder_screen(ScreenKind.FINAL, event, view), debrief_step=step)
    if step == DebriefStep.REVEAL:
        pages = revealed_rules(event, every=event.rules_revealed)
        return Screen(ScreenKind.RULES, event, view, rule_pages=pages, debrief_step=step)
    data = build_debrief(event)
    timelines: list[TableTimeline] = []
    if step in (DebriefStep.DISPUTES, DebriefStep.CLASHES):
        # One grid; the clash screen adds which rules met to the disputes.
        clashes = step == DebriefStep.CLASHES
        chart = charts.grid_svg(
            data.tables,
            data.rounds,
            data.grid_cells(),
            label=_("Which rules met, and disputed games, per table and round")
            if clashes
            else _("Disputed games per table and round"),
            show_kinds=clashes,
            translate=_,
        )
        kind = ScreenKind.CLASHES if clashes else ScreenKind.DISPUTES
        timelines = table_timelines(event, data, chosen_only=True)
    elif step == DebriefStep.PATHS:
        count = highlight_count(highlight or event.paths_highlight, len(data.paths))
        chart = charts.paths_svg(
            data.paths,
            data.rounds,
            data.tables,
            label=_("Every player's table, round by round"),
            highlight=charts.biggest_moves(data.paths, count) if count else None,
            translate=_,
        )
        kind = ScreenKind.PATHS
    else:
        chart = charts.flow_svg(
            data.flows,
            data.rounds,
            data.tables,
            label=_("How many players went from each table to each table"),
            translate=_,
        )
        kind = ScreenKind.FLOW
    legend = [
        LegendEntry(ReasonMark(charts.KIND_SYMBOLS[k], str(k)), _(charts.CLASH_TITLES[k]))
        for k in legend_kinds(data.cells.values())
    ]
    return Screen(
        kind,
        event,
        view,
        debrief_step=step,
        chart=mark_safe(chart),  # ElementTree escaped every name and word in it
        sentence=data.sentence if kind == ScreenKind.CLASHES else "",
        kind_legend=legend,
        timelines=timelines,
    )
