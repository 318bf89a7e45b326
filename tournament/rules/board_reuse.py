"""A board laid out again for the same players reuses the layout found before.

Terms (the others are tournament.rules.board_layout's):
    shape     what a layout depends on: the board's kind, each group's table, whether it
              is the top table, and its players' names in any order, plus the digits and
              the games its rows show beside the names. Games won, a group's order of
              rows and the marks beside the names are not part of it.
    refill    the layout of the same shape, each fragment given the rows that now stand
              at its place in its group, and the rows' heights measured again.

The round's board is drawn again after every report (four a second at time-up in a large
room), and finding its layout tried every layout and letter size: most of its cost. A
report changes games and the order within one table, not who sits where, so the shape
is the same. The refill is used when every column still fits the board's lines (a name
that wraps may have moved between two fragments of a split group); else the board is
laid out anew. So a refilled board shows the same pages in the same letters, each
column within the board's height, and every name in full.

Standard library only: this module must stay importable without Django.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import replace
from threading import Lock

from tournament.rules.board_layout import (
    Board,
    Group,
    Page,
    column_height,
    lay_out,
    table_digits,
)
from tournament.rules.name_width import name_width

SHAPES_KEPT = 32  # a few events' boards of each kind, in one server process
_EPSILON = 1e-6

# A board's shape: its kind, table digits, whether it shows games, and each group's table,
# place and names.
Shape = tuple[str, int, bool, tuple[tuple[int | None, bool, tuple[str, ...]], ...]]

_shapes: OrderedDict[Shape, Board] = OrderedDict()
_lock = Lock()  # server threads share the memory


def lay_out_reusing(groups: Iterable[Group], kind: str) -> Board:
    """lay_out(groups, kind), reusing the layout of the last board of the same shape."""
    groups = tuple(group for group in groups if group.rows)
    key = _shape(groups, kind)
    with _lock:
        known = _shapes.get(key)
        if known is not None:
            _shapes.move_to_end(key)
    if known is not None and (board := refill(known, groups)) is not None:
        return board
    board = lay_out(groups, kind)
    with _lock:
        _shapes[key] = board
        while len(_shapes) > SHAPES_KEPT:
            _shapes.popitem(last=False)
    return board


def _shape(groups: tuple[Group, ...], kind: str) -> Shape:
    games = any(getattr(row, "games", None) is not None for g in groups for row in g.rows)
    return (
        kind,
        table_digits(groups),
        games,
        tuple((g.table, g.top, tuple(sorted(row.name for row in g.rows))) for g in groups),
    )


def refill(board: Board, groups: tuple[Group, ...]) -> Board | None:
    """The board of the same shape with these groups' rows, or None when a column would
    no longer fit the board's lines."""
    wrapped_lines = board.layout.wrapped_lines
    line = board.name_line
    place, offset, previous = -1, 0, None
    pages = []
    for page in board.pages:
        columns = []
        for column in page.columns:
            fragments = []
            for fragment in column:
                if fragment.group is not previous:
                    place, offset, previous = place + 1, 0, fragment.group
                rows = groups[place].rows[offset : offset + len(fragment.rows)]
                offset += len(fragment.rows)
                heights = tuple(
                    wrapped_lines if name_width(row.name) > line else 1.0 for row in rows
                )
                fragments.append(replace(fragment, group=groups[place], rows=rows, heights=heights))
            if column_height(fragments, board.layout) > board.lines + _EPSILON:
                return None
            columns.append(tuple(fragments))
        pages.append(Page(tuple(columns)))
    return replace(board, pages=tuple(pages))
