"""Laying out a projector board: rows under table numbers, in columns and pages.

Terms:
    table     a numbered place where a group of players sits; a higher number is a better
              table, and the highest one is the *top* table.
    seat      a player's place at a table for one round; a row shows one seated player.
    round     a timed period of play; a round's result at a table is the number of games
              each player won there.
    move up / move down
              between rounds a table's winners go to the next higher table and its losers
              to the next lower one (see tournament.rules.movement); a row may show the table its
              player goes to, and the board keeps room for that number.
    climb     a player's current table number minus their home table number (round 1);
              +2 is two tables higher.
    row       one player: their name, then games won, the table they go to, or their
              climb. The engine reads only the name (how wide it is) and the table a row
              sends its player to (how many digits to keep room for).
    group     rows under one table number; table None gathers players with no table left.
    line      the unit of height: a row whose name fits on one line. A name too wide for
              its column wraps onto a second line, and its row is a layout's
              `wrapped_lines` tall. The gap between two fragments is part of a line.
    em        the unit of width: the height of a row's letters. A name is measured in em
              (tournament.rules.name_width), and so is what a row shows beside it.
    name line the width a layout keeps for a name on one line, in em. It follows from the
              letters' size: smaller letters leave more em in the same column.
    layout    how many columns a page has and how big letters may get in them.
    column    fragments stacked top to bottom, at most a given number of lines tall.
    fragment  the part of a group in one column; a long group continues in the next one.
    page      columns side by side: what the projector shows at once. The projector pages
              through the rest by itself.
    board     a screen's groups laid out in columns, and in pages when they do not fit on
              one page. Its lines are what its tallest column needs, at most MAX_LINES; the
              CSS makes a line that share of the screen, and its letters never bigger than
              the columns' width allows for `em` (a row's width in em).
    pack      fill columns top to bottom and pages left to right, keeping the groups' order.

Every name is shown in full: a layout is only chosen if each name fits its column on one
line or, wrapped at a space or a hyphen, on two.

Standard library only: this module must stay importable without Django.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

from tournament.rules.name_width import name_width, two_line_width

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
    """What a group holds, one per player. A row that sends its player to another table
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


# Names of at least 28 px at 1080p (2.6 rem) need rows of about 36 px: at most 22 of
# them fit on a board, fewer where the letters take less of a row or the screen's title
# and legend take more of its height.
MAX_LINES = 22
MIN_LETTERS_REM = 2.6
BOARD_HEIGHT_REM = 78  # about what a board's rows get of the screen, for comparing layouts
# What the rows get on each kind of screen (static/css/projector.css), in rem, at least:
# the ladder's title is thinner than the round's band, and the moves have a legend and a
# head over each column. Letters are sized from these, so each must be no more than the
# browser gives on every page (tests/browser/test_screenshots.py measures it): the moves'
# rows get 72.4 rem in English, and 73 here once made a page's names 27.7 px.
ROWS_HEIGHT_REM = {"standings": 78, "moves": 72, "ladder": 84}
BOARD_WIDTH_REM = 100 * 16 / 9 - 2 * 2.5  # a 16:9 screen less the stage's padding
COLUMN_GAP_REM = 2.5


@dataclass(frozen=True)
class Layout:
    """How many columns a board has, and the letters that go with their width."""

    name: str
    columns: int
    font_cap: float  # largest letters in rem (1% of a 16:9 screen's height)
    gap: float = 0.3  # space between two fragments in a column, in lines
    font_ratio: float = 0.7  # letters' height as a share of a row's
    details: bool = True  # room for games won beside the names on the moves screen
    badge: float = 2.1  # the table number's box, in em (static/css/projector.css)
    wrapped_lines: float = 1.5  # a row whose name takes two lines (of 1.05 em each)

    def font_size(self, lines: float, height: float = BOARD_HEIGHT_REM) -> float:
        """The letters' size in rem when a column of this height holds this many lines."""
        return min(self.font_ratio * height / lines, self.font_cap)

    def max_lines(self, height: float = BOARD_HEIGHT_REM) -> int:
        """The most lines a column may hold: more would make letters too small."""
        fit = math.floor(self.font_ratio * height / MIN_LETTERS_REM + 1e-9)
        return min(MAX_LINES, fit)

    @property
    def column_width(self) -> float:
        """A column's width in rem on a 16:9 screen (wider screens give more)."""
        return (BOARD_WIDTH_REM - COLUMN_GAP_REM * (self.columns - 1)) / self.columns


LAYOUTS: tuple[Layout, ...] = (
    Layout("two", 2, font_cap=5.6),
    # Letters take a little more of a row where many rows share a column, so that 22
    # rows still have names of 28 px at 1080p.
    Layout("three", 3, font_cap=4.4, font_ratio=0.74, wrapped_lines=1.6),
    Layout("four", 4, font_cap=3.0, font_ratio=0.74, wrapped_lines=1.6),
    # Five columns hold 100 short names; the thinner gap lets 33 tables of 3 fit too.
    Layout(
        "five",
        5,
        font_cap=2.8,
        gap=0.15,
        font_ratio=0.74,
        details=False,
        badge=1.9,
        wrapped_lines=1.6,
    ),
)
MIN_FRAGMENT_ROWS = 2  # a group is split only when both parts keep this many rows
# Each smaller size tried for the letters, to give names more of a column.
FONT_STEP = 0.92
# A wrapped name is slower to find: a layout that wraps every name counts its letters
# this much smaller when layouts are compared.
WRAP_COST = 0.3

# What a row shows beside the name, in em of its letters, as static/css/projector.css
# draws it (each with a little to spare): the gap after the badge and the row's padding,
# then per kind the games won, the tie mark, the arrow and the table to go to, or the
# climb and, on the final results, the games won. A digit of a table number is 0.6 em.
ROW_FRAME_EM = 0.45 + 0.45
GAP_EM = 0.3
GAMES_EM = GAP_EM + 1.5
MOVE_EM = GAP_EM + 0.9 + GAP_EM + 1.1  # the tie mark and the arrow; the digits come on top
MOVE_GAMES_EM = GAP_EM + 3.2  # "12 games" in small letters
CLIMB_EM = GAP_EM + 2.1
DIGIT_EM = 0.6


def beside_name(kind: str, layout: Layout, digits: int, *, games: bool = False) -> float:
    """Em that a row of this kind needs besides its name, the table badge included.

    games: ladder rows show the games won too (the final results).
    """
    if kind == "standings":
        shown = GAMES_EM
    elif kind == "moves":
        shown = MOVE_EM + DIGIT_EM * digits + (MOVE_GAMES_EM if layout.details else 0)
    else:
        shown = CLIMB_EM + (GAMES_EM if games else 0)
    return layout.badge + ROW_FRAME_EM + shown


@dataclass(frozen=True)
class Fragment:
    group: Group
    rows: tuple[Row, ...]
    continued: bool = False
    heights: tuple[float, ...] = ()  # each row's lines; none given: one line each

    @property
    def table(self) -> int | None:
        return self.group.table

    @property
    def lines(self) -> float:
        return sum(self.heights) if self.heights else float(len(self.rows))


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


def _one_line(_row: Row) -> float:
    return 1.0


def pack(
    groups: Sequence[Group],
    layout: Layout,
    *,
    split: bool,
    lines: float,
    height: Callable[[Row], float] = _one_line,
) -> list[Page]:
    """Fill columns of at most `lines` top to bottom, and pages left to right, in order.

    Without split a group that does not fit under the previous one starts a new column;
    with split it continues in the next column. A group taller than a whole column is
    always split. height gives each row's lines.
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
        sizes = [height(row) for row in rows]
        continued = False
        while rows:
            gap = layout.gap if column else 0.0
            room = lines - used - gap + 1e-9
            fit, filled = 0, 0.0
            for size in sizes:
                if filled + size > room:
                    break
                filled += size
                fit += 1
            if fit == len(rows):
                take = fit
            elif split or not column:
                take = min(fit, len(rows) - MIN_FRAGMENT_ROWS)
                if take < MIN_FRAGMENT_ROWS:
                    take = 0 if column else fit
            else:
                take = 0
            if take <= 0 and not column:
                take = 1  # a row taller than a whole column still needs a place
            if take <= 0:
                close_column()
                continue
            column.append(Fragment(group, tuple(rows[:take]), continued, tuple(sizes[:take])))
            used += gap + sum(sizes[:take])
            rows, sizes = rows[take:], sizes[take:]
            continued = True
            if rows:
                close_column()
    if column:
        close_column()
    if columns:
        pages.append(Page(tuple(columns)))
    return pages


def column_height(column: Sequence[Fragment], layout: Layout) -> float:
    return sum(fragment.lines for fragment in column) + layout.gap * (len(column) - 1)


@dataclass(frozen=True)
class Board:
    """Groups laid out for the screen; kind is "standings", "moves" or "ladder".

    lines is the height of the tallest column: the CSS makes a line 1/lines of the board.
    em is a row's width in em of its letters (name line and all beside it): the CSS keeps
    the letters small enough for a column to hold that many.
    """

    kind: str
    layout: Layout
    pages: tuple[Page, ...]
    lines: float = MAX_LINES
    em: float = 1.0
    beside: float = 0.0  # em of a row beside the name (beside_name)

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
        return table_digits(group for group in {id(f.group): f.group for f in fragments}.values())

    @property
    def name_line(self) -> float:
        """The width a name may take on one line, in em."""
        return self.em - self.beside

    @property
    def letters(self) -> float:
        """The names' size in rem on a 16:9 screen, as the CSS computes it: what a row's
        height allows on the rows' room for this kind, or a column's width, the smaller."""
        by_height = self.layout.font_size(self.lines, rows_height(self.kind))
        return min(by_height, self.layout.column_width / self.em)


def rows_height(kind: str) -> float:
    """The rem of a 16:9 screen's height that a board of this kind gets for its rows."""
    return ROWS_HEIGHT_REM.get(kind, BOARD_HEIGHT_REM)


def table_digits(groups: Iterable[Group]) -> int:
    numbers: list[int] = []
    for group in groups:
        if group.table is not None:
            numbers.append(group.table)
        # Move rows live with the seat reasons they show (tournament.reads.projector.boards),
        # so they are recognised by their destination rather than by their class.
        numbers += [to_table for row in group.rows if (to_table := getattr(row, "to_table", None))]
    return len(str(max(numbers, default=1)))


def _font_sizes(layout: Layout, beside: float, widest: float, widest_wrapped: float) -> list[float]:
    """The letter sizes worth trying in a layout, biggest first: from the biggest that
    keeps every name on at most two lines down to the smallest allowed."""
    floor = min(MIN_LETTERS_REM, layout.font_cap)
    biggest = layout.column_width / (beside + widest_wrapped)
    if biggest < floor:
        # Only where nothing else fits: the widest layout, with smaller letters.
        return [biggest] if layout is LAYOUTS[0] else []
    biggest = min(biggest, layout.font_cap)
    sizes = [biggest]
    while sizes[-1] * FONT_STEP > floor:
        sizes.append(sizes[-1] * FONT_STEP)
    sizes.append(floor)
    unwrapped = layout.column_width / (beside + widest)  # the biggest with no name wrapped
    if floor < unwrapped < biggest:
        sizes.append(unwrapped)
    return sorted(set(sizes), reverse=True)


@dataclass(frozen=True)
class _Sizing:
    """One way to size a board: a layout, its letters, and the names that wrap with them."""

    layout: Layout
    room: float  # rem of height for the rows
    font: float  # rem, at most: a column's width holds `em` of these
    em: float
    beside: float  # em beside the name
    wrapped: frozenset[str]

    @property
    def max_lines(self) -> int:
        return self.layout.max_lines(self.room)

    def lines_of(self, row: Row) -> float:
        return self.layout.wrapped_lines if row.name in self.wrapped else 1.0

    def rank(
        self, pages: int, lines: float, split: bool, wrapped_share: float
    ) -> tuple[int, bool, float, int, float]:
        """Smaller is better (see lay_out)."""
        shown = min(self.font, self.layout.font_size(lines, self.room))
        seen = round(shown * (1 - WRAP_COST * wrapped_share), 3)
        # Last, the bigger letters a taller screen would give.
        return (pages, split, -seen, self.layout.columns, -self.font)

    def shortest_columns(
        self, groups: Sequence[Group], split: bool, pages: list[Page], start: int
    ) -> tuple[list[Page], float]:
        """As many pages with the shortest columns, and their tallest column."""
        for lines in range(start, self.max_lines):
            shorter = pack(groups, self.layout, split=split, lines=lines, height=self.lines_of)
            if len(shorter) <= len(pages):
                pages = shorter
                break
        tallest = max(
            column_height(column, self.layout) for page in pages for column in page.columns
        )
        return pages, tallest


def _sizings(kind: str, rows: Sequence[Row], digits: int, games: bool) -> Iterator[_Sizing]:
    """Every layout and letter size worth trying, smallest letters first: they wrap the
    fewest names, so the fewest pages are found early and most other sizings need no
    packing at all."""
    room = rows_height(kind)
    names = {row.name for row in rows}
    widest = max(map(name_width, names))
    widest_wrapped = max(map(two_line_width, names))
    for layout in reversed(LAYOUTS):
        beside = beside_name(kind, layout, digits, games=games)
        for font in reversed(_font_sizes(layout, beside, widest, widest_wrapped)):
            em = layout.column_width / font
            wrapped = frozenset(name for name in names if name_width(name) > em - beside)
            yield _Sizing(layout, room, font, em, beside, wrapped)


def lay_out(groups: Iterable[Group], kind: str) -> Board:
    """Every name in full, on as few pages as possible, in the biggest letters.

    Ranked: fewest pages; then every group kept whole in a column; then the biggest
    letters, less for the names wrapped (WRAP_COST); then fewer, wider columns. So a name
    wraps onto a second line only where that makes letters much bigger or saves a page.
    """
    groups = tuple(group for group in groups if group.rows)
    if not groups:
        return Board(kind, LAYOUTS[0], ())
    rows = [row for group in groups for row in group.rows]
    best: tuple[tuple[int, bool, float, int, float], Board] | None = None
    games = any(getattr(row, "games", None) is not None for row in rows)
    for sizing in _sizings(kind, rows, table_digits(groups), games):
        layout = sizing.layout
        total = sum(map(sizing.lines_of, rows))
        share = (total / len(rows) - 1) / (layout.wrapped_lines - 1)  # of the names wrapped
        for split in (False, True):
            # Skip packing where even full columns without gaps could not rank better.
            fewest = math.ceil(total / (layout.columns * sizing.max_lines))
            lines = total / (layout.columns * fewest)
            if best and sizing.rank(fewest, lines, split, share) >= best[0]:
                continue
            pages = pack(
                groups, layout, split=split, lines=sizing.max_lines, height=sizing.lines_of
            )
            start = max(1, math.ceil(total / (layout.columns * len(pages))))
            if best and sizing.rank(len(pages), start, split, share) >= best[0]:
                continue
            pages, lines = sizing.shortest_columns(groups, split, pages, start)
            rank = sizing.rank(len(pages), lines, split, share)
            if best is None or rank < best[0]:
                # Rounded up: a little more room for rows and names, never less.
                em = math.ceil(sizing.em * 1000) / 1000
                lines = math.ceil(lines * 100 - 1e-6) / 100
                board = Board(kind, layout, tuple(pages), lines, em, sizing.beside)
                best = (rank, board)
    assert best is not None  # the widest layout always has a size
    return best[1]
