"""Laying out a projector board: rows under table numbers, in columns and pages.

Terms:
    table     a numbered place where a group of players sits; a higher number is a better
              table, and the highest one is the *top* table.
    seat      a player's place at a table for one round; a row shows one seated player.
    round     a timed period of play; a round's result at a table is the number of games
              each player won there.
    move up / move down
              between rounds a table's winners go to the next higher table and its losers
              to the next lower one (see tournament.movement); a row may show the table its
              player goes to, and the board keeps room for that number.
    climb     a player's current table number minus their home table number (round 1);
              +2 is two tables higher.
    row       one line of text about one player: games won, the table they go to, or
              their climb. The engine only counts rows; it never reads them.
    group     rows under one table number; table None gathers players with no table left.
    line      the unit of height: one row. The gap between two fragments is part of a line.
    layout    how many columns a page has and how big letters may get in them.
    column    fragments stacked top to bottom, at most a given number of lines tall.
    fragment  the part of a group in one column; a long group continues in the next one.
    page      columns side by side: what the projector shows at once. The projector pages
              through the rest by itself.
    board     a screen's groups laid out in columns, and in pages when they do not fit on
              one page. Its lines are what its tallest column needs, at most MAX_LINES; the
              CSS makes a row that share of the screen.
    pack      fill columns top to bottom and pages left to right, keeping the groups' order.

Standard library only: this module must stay importable without Django.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

# --- rows and groups ----------------------------------------------------------------


@dataclass(frozen=True)
class StandingRow:
    """A player at a table in the round being played, and the games they won so far."""

    name: str
    games: int


@dataclass(frozen=True)
class LadderRow:
    """A player's current table and how far they climbed since their home table."""

    name: str
    table: int
    climb: int | None  # None: no home table (joined after round 1)
    games: int | None = None  # games in the last round, on the final results only

    @property
    def climb_size(self) -> int:
        return abs(self.climb or 0)


class Row(Protocol):
    """What a group holds, one per line. A row that sends its player to another table
    also has ``to_table``; the board makes its number column wide enough for it."""

    @property
    def name(self) -> str: ...


@dataclass(frozen=True)
class Group:
    """Rows under one table number; table None groups players with no table left."""

    table: int | None
    rows: tuple[Row, ...]
    top: bool = False


# --- boards: columns and pages that fit the screen ----------------------------------


@dataclass(frozen=True)
class Layout:
    """How many columns a board has, and the letters that go with their width."""

    name: str
    columns: int
    font_cap: float  # largest letters in rem (1% of a 16:9 screen's height): names fit
    gap: float = 0.3  # space between two fragments in a column, in lines
    font_ratio: float = 0.7  # letters' height as a share of a row's
    details: bool = True  # room for games won and tie marks beside the names

    def font_size(self, lines: float) -> float:
        """The letters' size in rem when a column holds this many lines."""
        return min(self.font_ratio * BOARD_HEIGHT_REM / lines, self.font_cap)


# Names of at least 28 px at 1080p need rows of about 38 px: 22 of them fit on a board.
MAX_LINES = 22
BOARD_HEIGHT_REM = 78  # about what a board gets of the screen, for comparing layouts
LAYOUTS: tuple[Layout, ...] = (
    Layout("two", 2, font_cap=5.6),
    Layout("three", 3, font_cap=4.4),
    Layout("four", 4, font_cap=3.0),
    # Five columns hold 100 players; the thinner gap lets 33 tables of 3 fit too.
    Layout("five", 5, font_cap=2.8, gap=0.15, font_ratio=0.74, details=False),
)
MIN_FRAGMENT_ROWS = 2  # a group is split only when both parts keep this many rows


@dataclass(frozen=True)
class Fragment:
    group: Group
    rows: tuple[Row, ...]
    continued: bool = False

    @property
    def table(self) -> int | None:
        return self.group.table


@dataclass(frozen=True)
class Page:
    columns: tuple[tuple[Fragment, ...], ...]

    @property
    def tables(self) -> list[int]:
        return [
            fragment.table
            for column in self.columns
            for fragment in column
            if fragment.table is not None
        ]

    @property
    def first_table(self) -> int | None:
        return self.tables[0] if self.tables else None

    @property
    def last_table(self) -> int | None:
        return self.tables[-1] if self.tables else None


def pack(groups: Sequence[Group], layout: Layout, *, split: bool, lines: int) -> list[Page]:
    """Fill columns of at most `lines` top to bottom, and pages left to right, in order.

    Without split a group that does not fit under the previous one starts a new column;
    with split it continues in the next column. A group taller than a whole column is
    always split.
    """
    pages: list[Page] = []
    columns: list[tuple[Fragment, ...]] = []
    column: list[Fragment] = []
    used = 0.0

    def close_column() -> None:
        nonlocal column, used
        columns.append(tuple(column))
        column, used = [], 0.0
        if len(columns) == layout.columns:
            pages.append(Page(tuple(columns)))
            columns.clear()

    for group in groups:
        rows = list(group.rows)
        continued = False
        while rows:
            gap = layout.gap if column else 0.0
            room = math.floor(lines - used - gap + 1e-9)
            if len(rows) <= room:
                take = len(rows)
            elif split or not column:
                take = min(room, len(rows) - MIN_FRAGMENT_ROWS)
                if take < MIN_FRAGMENT_ROWS:
                    take = 0 if column else room
            else:
                take = 0
            if take <= 0:
                close_column()
                continue
            column.append(Fragment(group, tuple(rows[:take]), continued))
            used += gap + take
            rows = rows[take:]
            continued = True
            if rows:
                close_column()
    if column:
        close_column()
    if columns:
        pages.append(Page(tuple(columns)))
    return pages


def column_height(column: Sequence[Fragment], layout: Layout) -> float:
    return sum(len(fragment.rows) for fragment in column) + layout.gap * (len(column) - 1)


@dataclass(frozen=True)
class Board:
    """Groups laid out for the screen; kind is "standings", "moves" or "ladder".

    lines is the height of the tallest column: the CSS makes a row 1/lines of the board.
    """

    kind: str
    layout: Layout
    pages: tuple[Page, ...]
    lines: float = MAX_LINES

    @property
    def is_empty(self) -> bool:
        return not self.pages

    @property
    def is_paged(self) -> bool:
        return len(self.pages) > 1

    @property
    def digits(self) -> int:
        """Digits of the longest table number on the board, to keep number columns even."""
        fragments = [f for page in self.pages for column in page.columns for f in column]
        numbers = [f.table for f in fragments if f.table is not None]
        # Move rows live with the seat reasons they show (tournament.projector), so they
        # are recognised by their destination rather than by their class.
        numbers += [
            to_table
            for f in fragments
            for row in f.rows
            if (to_table := getattr(row, "to_table", None)) is not None
        ]
        return len(str(max(numbers, default=1)))


def _one_page(groups: Sequence[Group], layout: Layout, split: bool) -> Board | None:
    """The layout's one-page board with the shortest columns, if everything fits."""
    start = math.ceil(sum(len(group.rows) for group in groups) / layout.columns)
    for lines in range(start, MAX_LINES + 1):
        pages = pack(groups, layout, split=split, lines=lines)
        if len(pages) <= 1:
            tallest = max(column_height(column, layout) for column in pages[0].columns)
            return Board("", layout, tuple(pages), round(tallest, 2))
    return None


def lay_out(groups: Iterable[Group], kind: str) -> Board:
    """Show every group on one page in the layout with the biggest letters (the one with
    fewer, wider columns when that is a tie), else page through in the narrowest.

    Keeping every group whole is tried with each layout before any group is split.
    """
    groups = tuple(group for group in groups if group.rows)
    if not groups:
        return Board(kind, LAYOUTS[0], ())
    for split in (False, True):
        fits = [board for layout in LAYOUTS if (board := _one_page(groups, layout, split))]
        if fits:
            best = max(fits, key=lambda b: (b.layout.font_size(b.lines), -b.layout.columns))
            return replace(best, kind=kind)
    narrowest = LAYOUTS[-1]
    pages = pack(groups, narrowest, split=True, lines=MAX_LINES)
    tallest = max(column_height(c, narrowest) for page in pages for c in page.columns)
    return Board(kind, narrowest, tuple(pages), round(tallest, 2))
