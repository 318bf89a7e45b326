"""A board drawn again for the same seating reuses its layout: the rows in their new order,
every name in full, every column within the board's lines."""

from __future__ import annotations

from unittest import mock

from hypothesis import given
from hypothesis import strategies as st

from tests.tournament.rules.test_board_layout import PROPERTY, fits, groups_of
from tournament.rules import board_reuse
from tournament.rules.board_layout import Board, Group, StandingRow, column_height, lay_out
from tournament.rules.board_reuse import lay_out_reusing, refill

LONG = "Oluwaseun Van der Berg-Castellanos Okafor"  # wraps in most layouts


def by_games(group: Group, games: dict[str, int]) -> Group:
    """The group's rows ranked as the round's board ranks them: most games first."""
    rows = sorted(group.rows, key=lambda row: (-games.get(row.name, 0), row.name))
    return Group(group.table, tuple(StandingRow(row.name, games.get(row.name, 0)) for row in rows))


def shown(board: Board) -> list[tuple[int | None, str, int]]:
    found = []
    for page in board.pages:
        for column in page.columns:
            for fragment in column:
                for row in fragment.rows:
                    assert isinstance(row, StandingRow)  # the board of a round being played
                    found.append((fragment.table, row.name, row.games))
    return found


def test_a_report_redraws_the_board_without_laying_it_out_again():
    groups = groups_of([4] * 125)
    board_reuse._shapes.clear()
    lay_out_reusing(groups, "standings")
    reported = [by_games(groups[41], {groups[41].rows[3].name: 1}), *groups[42:]]
    after = [*groups[:41], *reported]

    with mock.patch.object(board_reuse, "lay_out", side_effect=AssertionError("laid out")):
        board = lay_out_reusing(after, "standings")

    assert shown(board) == [(g.table, r.name, r.games) for g in after for r in g.rows]
    assert shown(board)[41 * 4] == (42, groups[41].rows[3].name, 1)  # the winner leads


def test_another_seating_is_laid_out_anew():
    board_reuse._shapes.clear()
    lay_out_reusing(groups_of([4] * 20), "standings")
    moved = groups_of([5, 3] + [4] * 18)

    with mock.patch.object(board_reuse, "lay_out", wraps=lay_out) as engine:
        lay_out_reusing(moved, "standings")

    engine.assert_called_once()


def test_a_refill_that_would_overflow_a_column_is_refused_and_laid_out_anew():
    # 52 short names and two that wrap, last in a table split over columns: moved first,
    # the wrapped names would make the first column taller than the board's lines.
    short = [f"P{n}" for n in range(52)]
    longs = [f"{LONG} A", f"{LONG} B"]
    group = Group(1, tuple(StandingRow(name, 0) for name in short + longs))
    board_reuse._shapes.clear()
    board = lay_out_reusing([group], "standings")
    longs_first = Group(1, tuple(sorted(group.rows, key=lambda row: row.name not in longs)))

    assert refill(board, (longs_first,)) is None
    with mock.patch.object(board_reuse, "lay_out", wraps=lay_out) as engine:
        again = lay_out_reusing([longs_first], "standings")
    engine.assert_called_once()
    heights = [column_height(c, again.layout) for page in again.pages for c in page.columns]
    assert max(heights) <= again.lines + 1e-6


names = (
    st.text(alphabet="abcdefghij KLMNOPÉŁ-", min_size=1, max_size=40).map(str.strip).filter(bool)
)


@PROPERTY
@given(
    tables=st.lists(st.lists(names, min_size=1, max_size=8, unique=True), min_size=1, max_size=40),
    data=st.data(),
)
def test_a_reused_layout_shows_the_new_order_and_every_column_fits(tables, data):
    board_reuse._shapes.clear()
    groups = [
        Group(number, tuple(StandingRow(name, 0) for name in players))
        for number, players in enumerate(tables, start=1)
    ]
    first = lay_out_reusing(groups, "standings")
    again = [Group(g.table, tuple(data.draw(st.permutations(g.rows)))) for g in groups]

    board = lay_out_reusing(again, "standings")

    assert shown(board) == [(g.table, r.name, r.games) for g in again for r in g.rows]
    assert len(board.pages) == len(first.pages)
    heights = [column_height(c, board.layout) for page in board.pages for c in page.columns]
    assert max(heights) <= board.lines + 1e-6
    assert fits(board) == []
