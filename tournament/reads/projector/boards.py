"""The projector's boards: who sits where, read for the round, the moves and the ladder.

Terms:
    board     a screen's groups laid out in columns, and in pages when they do not fit on
              one screen; tournament.rules.board_layout lays it out (and defines its column,
              line, fragment and layout).
    group     rows under one table number: the players at a table and their games this
              round (standings), the players leaving a table (moves), or the players now at
              a table (ladder).
    row       one player on a board. Standing and ladder rows are plain (board_layout);
              a move row stays here because its label is the seat reason's, a model choice.
    mark      the symbol beside a move: a filled arrow moves up or down, a hollow one stays
              at the top or bottom table, ● stays. ★ after the games says a tie in games,
              broken alphabetically, decided the move: the same star as on the organizer
              console.
    legend    the marks a moves board uses, each with its words, in the order a player
              reads a table: up, stays, down.
    ladder    every player's current table, top table first, and their *climb*: current
              table number minus home table number (round 1); +2 is two tables higher.

Each board costs one to three queries, whatever the number of players.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _

from tables.models import Game
from tournament.common.i18n import gettext_noop
from tournament.models import Event, Round, Seat, SeatReason, reason_label
from tournament.rules.board_layout import Board, Group, LadderRow, StandingRow, lay_out
from tournament.rules.board_reuse import lay_out_reusing
from tournament.rules.ordering import name_key, rank_players

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise

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
        return reason_label(self.reason, self.games)

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
    # Drawn again after every report: the layout of the same seating is reused.
    return lay_out_reusing(
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


def moves_board(event: Event, round_number: int) -> tuple[Board, list[LegendEntry]]:
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
    # Sorted in place before they become a Group's rows, where they are only Rows.
    for rows in by_table.values():
        rows.sort(key=lambda r: (-(r.games or 0), name_key(r.name)))
    groups = [
        Group(number, tuple(by_table[number]), top=number is not None and number == top)
        for number in order
    ]
    return lay_out(groups, "moves"), _legend(by_table.values())


@dataclass(frozen=True)
class LegendEntry:
    mark: ReasonMark
    label: str | StrPromise  # a SeatReason's label is lazy


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
    # Sorted in place before they become a Group's rows, where they are only Rows.
    for rows in by_table.values():
        rows.sort(key=order)
    return lay_out(
        (
            Group(number, tuple(by_table[number]), top=number == top)
            for number in sorted(by_table, reverse=True)
        ),
        "ladder",
    )
