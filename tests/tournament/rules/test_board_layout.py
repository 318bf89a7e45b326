"""Laying out a board: groups packed into columns and pages that fit the screen."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.browser.test_screenshots import room_names
from tests.properties import examples
from tournament.rules.board_layout import (
    LAYOUTS,
    MAX_LINES,
    MIN_LETTERS_REM,
    Board,
    Group,
    StandingRow,
    beside_name,
    column_height,
    lay_out,
    pack,
    rows_height,
)
from tournament.rules.name_width import name_width, two_line_width

# No example database: it would leave a .hypothesis directory in the work tree.
PROPERTY = settings(database=None, deadline=None, max_examples=examples(100))


def groups_of(sizes: list[int]) -> list[Group]:
    count = iter(range(1, 10_000))
    return [
        Group(number, tuple(StandingRow(f"P{next(count)}", 0) for _ in range(size)))
        for number, size in enumerate(sizes, start=1)
    ]


def rows_in(board) -> list[str]:
    return [
        row.name
        for page in board.pages
        for column in page.columns
        for fragment in column
        for row in fragment.rows
    ]


def plan(players: int, tables: int) -> list[int]:
    base, extra = divmod(players, tables)
    return [base + 1] * extra + [base] * (tables - extra)


# --- packing -----------------------------------------------------------------------------


def test_twelve_tables_of_six_fit_on_one_page_without_splitting_a_table():
    board = lay_out(groups_of([6] * 12), "standings")

    assert len(board.pages) == 1
    fragments = [f for column in board.pages[0].columns for f in column]
    assert len(fragments) == 12
    assert not any(f.continued for f in fragments)
    assert board.layout.columns == 4
    assert board.layout.font_size(board.lines) * 10.8 >= 30, "px at 1080p"


@pytest.mark.parametrize("tables", [17, 20, 25, 33])
def test_a_hundred_players_standings_fit_on_one_page_whatever_the_table_plan(tables):
    board = lay_out(groups_of(plan(100, tables)), "standings")

    assert len(board.pages) == 1
    assert len(rows_in(board)) == 100


@pytest.mark.parametrize("tables", [17, 20, 25, 33])
def test_a_hundred_players_moves_take_two_pages_under_their_legend(tables):
    board = lay_out(groups_of(plan(100, tables)), "moves")

    assert len(board.pages) == 2
    assert len(rows_in(board)) == 100


def test_five_hundred_players_page_through_keeping_every_row_once_and_in_order():
    groups = groups_of(plan(500, 125))
    board = lay_out(groups, "moves")

    assert board.is_paged
    assert rows_in(board) == [row.name for group in groups for row in group.rows]
    for page in board.pages:
        assert len(page.columns) <= board.layout.columns
        for column in page.columns:
            assert column_height(column, board.layout) <= MAX_LINES


def test_a_small_event_gets_the_biggest_letters():
    assert lay_out(groups_of([4, 4, 4]), "standings").layout == LAYOUTS[0]


def test_the_layout_with_the_biggest_letters_wins_not_the_one_with_fewest_columns():
    board = lay_out(groups_of([4] * 12), "moves")  # 48 players

    assert board.layout.columns == 3
    assert [len(column) for column in board.pages[0].columns] == [4, 4, 4]


def test_columns_are_balanced_on_a_single_page():
    board = lay_out(groups_of([4] * 6), "standings")
    heights = [column_height(column, board.layout) for column in board.pages[0].columns]

    assert max(heights) - min(heights) <= 4 + board.layout.gap


def test_a_group_is_split_only_when_both_parts_keep_two_rows():
    layout = LAYOUTS[-1]
    pages = pack(groups_of([3] * 40), layout, split=True, lines=MAX_LINES)

    for page in pages:
        for column in page.columns:
            for fragment in column:
                whole = len(fragment.group.rows)
                assert len(fragment.rows) == whole or len(fragment.rows) >= 2


def test_a_group_taller_than_a_column_is_split_even_without_splitting_allowed():
    pages = pack(groups_of([12]), LAYOUTS[0], split=False, lines=9)

    fragments = [f for page in pages for column in page.columns for f in column]
    assert [len(f.rows) for f in fragments] == [9, 3]
    assert [f.continued for f in fragments] == [False, True]


@pytest.mark.parametrize(("tables", "digits"), [(9, 1), (10, 2), (125, 3)])
def test_a_board_knows_its_longest_table_number_so_number_columns_line_up(tables, digits):
    assert lay_out(groups_of([2] * tables), "standings").digits == digits


def test_nothing_to_show_is_an_empty_board():
    board = lay_out([Group(1, ())], "standings")

    assert board.is_empty
    assert not board.is_paged


@dataclass(frozen=True)
class Leaving:
    """A row that sends its player to another table, as the projector's move rows do."""

    name: str
    to_table: int


def test_a_board_keeps_room_for_the_table_a_player_goes_to():
    board = lay_out([Group(9, (Leaving("Ada", 10),))], "moves")

    assert board.digits == 2


# --- properties ----------------------------------------------------------------------------

# Up to 60 tables of 1 to 12 players: from a single column to many pages in every layout.
group_sizes = st.lists(st.integers(min_value=1, max_value=12), min_size=1, max_size=60)


def placed(board: Board) -> list[tuple[int | None, str]]:
    return [
        (fragment.table, row.name)
        for page in board.pages
        for column in page.columns
        for fragment in column
        for row in fragment.rows
    ]


@PROPERTY
@given(sizes=group_sizes)
def test_every_row_is_placed_once_in_order_and_every_page_fits(sizes):
    groups = groups_of(sizes)
    board = lay_out(groups, "standings")

    assert placed(board) == [(group.table, row.name) for group in groups for row in group.rows]
    heights = [column_height(c, board.layout) for page in board.pages for c in page.columns]
    assert max(heights) == pytest.approx(board.lines)
    assert board.lines <= MAX_LINES
    assert all(len(page.columns) <= board.layout.columns for page in board.pages)


@PROPERTY
@given(
    sizes=group_sizes,
    layout=st.sampled_from(LAYOUTS),
    split=st.booleans(),
    lines=st.integers(min_value=1, max_value=MAX_LINES),
)
def test_packing_keeps_order_and_columns_never_overflow(sizes, layout, split, lines):
    groups = groups_of(sizes)
    pages = pack(groups, layout, split=split, lines=lines)
    fragments = [f for page in pages for column in page.columns for f in column]

    assert [row for f in fragments for row in f.rows] == [row for g in groups for row in g.rows]
    for page in pages:
        assert 1 <= len(page.columns) <= layout.columns
        # The packer allows 1e-9 for the gaps' float sums.
        assert all(column_height(column, layout) <= lines + 1e-9 for column in page.columns)
    # A group's first fragment starts it; every later one continues it.
    firsts = [f for f in fragments if not f.continued]
    assert [f.group for f in firsts] == groups


# --- every name in full ----------------------------------------------------------------------


@dataclass(frozen=True)
class Moving:
    """A move row as the projector builds it: a name, its games and where it goes."""

    name: str
    to_table: int
    games: int = 0


LONGEST = "Oluwaseun Van der Berg-Castellanos Okafor"[:40]  # as long as a name may be


def sixty_players(first_names: dict[int, list[str]]) -> list[Group]:
    """15 tables of 4; the tables named in first_names seat those players first."""
    count = iter(range(1, 10_000))
    groups = []
    for table in range(1, 16):
        names = first_names.get(table, [])
        names = names + [f"Player {next(count):03d}" for _ in range(4 - len(names))]
        groups.append(Group(table, tuple(Moving(name, table) for name in names)))
    return groups


def fits(board: Board) -> list[str]:
    """Names whose column cannot hold them on one line, or on two where wrapped."""
    line = board.name_line
    too_wide = []
    for page in board.pages:
        for column in page.columns:
            for fragment in column:
                for row, lines in zip(fragment.rows, fragment.heights, strict=True):
                    width = two_line_width(row.name) if lines > 1 else name_width(row.name)
                    if width > line + 1e-9:
                        too_wide.append(row.name)
    return too_wide


def letters(board: Board) -> float:
    """The letters' size in rem that a 16:9 screen's column width allows."""
    return board.layout.column_width / board.em


def test_sixty_players_with_two_hannahs_at_one_table_each_get_their_whole_name():
    groups = sixty_players({8: ["Hannah Abara", "Hannah Zeller"], 3: [LONGEST]})

    board = lay_out(groups, "moves")

    assert fits(board) == []
    assert [name for name in rows_in(board) if name.startswith("Hannah")] == [
        "Hannah Abara",
        "Hannah Zeller",
    ]
    assert letters(board) >= MIN_LETTERS_REM - 1e-3
    assert all(column_height(c, board.layout) <= MAX_LINES for p in board.pages for c in p.columns)


def test_a_name_too_wide_for_one_line_wraps_onto_two_and_its_row_is_taller():
    board = lay_out(sixty_players({3: [LONGEST]}), "standings")

    (fragment,) = [f for p in board.pages for c in p.columns for f in c if f.table == 3]
    longest = fragment.rows.index(next(row for row in fragment.rows if row.name == LONGEST))
    assert name_width(LONGEST) > board.name_line, "too wide for one line"
    assert fragment.heights[longest] == board.layout.wrapped_lines
    assert {height for i, height in enumerate(fragment.heights) if i != longest} == {1.0}


def test_short_names_wrap_nowhere():
    board = lay_out(sixty_players({}), "moves")

    assert {h for p in board.pages for c in p.columns for f in c for h in f.heights} == {1.0}


def test_a_page_too_many_is_better_than_a_name_cut():
    """Fifteen tables of short names share a screen; long names need a second page."""
    short = lay_out(sixty_players({}), "moves")
    long_names = {table: [f"{LONGEST[: -len(str(table))]}{table}"] * 1 for table in range(1, 16)}

    board = lay_out(sixty_players(long_names), "moves")

    assert len(short.pages) == 1
    assert len(board.pages) > 1
    assert fits(board) == []


def test_a_row_keeps_room_for_what_its_kind_shows_beside_the_name():
    three = LAYOUTS[1]

    assert beside_name("moves", three, 2) > beside_name("ladder", three, 2)
    assert beside_name("ladder", three, 2) > beside_name("standings", three, 2)
    assert beside_name("moves", three, 3) > beside_name("moves", three, 2), "a wider number"


# Names as a roster has them: words of 2 to 14 letters, some with a hyphen, 40 at most.
word = st.text(alphabet="abcdefghijklmnopqrstuvwxyzéøüWMIl", min_size=1, max_size=13).map(
    str.capitalize
)
person = st.lists(word, min_size=1, max_size=4).map(" ".join).map(lambda name: name[:40])
rosters = st.lists(st.lists(person, min_size=1, max_size=7), min_size=1, max_size=30)


@PROPERTY
@given(tables=rosters)
def test_every_name_fits_its_column_in_full_and_in_letters_big_enough(tables):
    groups = [
        Group(number, tuple(Moving(name, number + 1) for name in names))
        for number, names in enumerate(tables, start=1)
    ]
    for kind in ("standings", "moves", "ladder"):
        board = lay_out(groups, kind)

        assert fits(board) == [], kind
        assert letters(board) >= MIN_LETTERS_REM - 1e-3, kind  # em is rounded up
        assert sorted(rows_in(board)) == sorted(name for names in tables for name in names)


# --- names of 28 px at 1080p on every page ---------------------------------------------

MIN_NAME_PX_AT_1080P = 28
REM_AT_1080P = 10.8  # 1rem is 1% of a 16:9 screen's height


def room_of(players: int, per_table: int, kind: str) -> Board:
    """players at tables of about per_table, in real names, long ones included."""
    names = iter(room_names(players))
    sizes = plan(players, max(1, round(players / per_table)))
    return lay_out(
        [
            Group(number, tuple(Moving(next(names), number + 1) for _ in range(size)))
            for number, size in enumerate(sizes, start=1)
        ],
        kind,
    )


def test_letters_are_what_the_rows_room_and_the_columns_width_allow():
    board = room_of(500, 4, "moves")

    by_height = board.layout.font_size(board.lines, rows_height("moves"))
    assert board.letters == min(by_height, board.layout.column_width / board.em)
    assert board.letters * REM_AT_1080P >= MIN_NAME_PX_AT_1080P


@pytest.mark.parametrize("kind", ["standings", "moves", "ladder"])
@pytest.mark.parametrize("players", [20, 48, 60, 72, 100, 101, 250, 375, 499, 500])
def test_names_are_28_px_at_1080p_on_every_board_from_20_to_500_players(players, kind):
    for per_table in (4, 6):
        board = room_of(players, per_table, kind)

        # em is rounded up to 0.001, so letters may be that much under the minimum.
        assert board.letters * REM_AT_1080P >= MIN_NAME_PX_AT_1080P - 0.02, (per_table, board)


@PROPERTY
@given(
    players=st.integers(min_value=20, max_value=500),
    per_table=st.integers(min_value=3, max_value=8),
    kind=st.sampled_from(["standings", "moves", "ladder"]),
)
def test_names_are_28_px_at_1080p_whatever_the_room(players, per_table, kind):
    board = room_of(players, per_table, kind)

    assert board.letters * REM_AT_1080P >= MIN_NAME_PX_AT_1080P - 0.02
    assert board.lines <= board.layout.max_lines(rows_height(kind))
