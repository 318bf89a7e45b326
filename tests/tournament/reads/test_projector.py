"""The projector's data: standings, moves, the ladder, the rules, and the screens."""

from __future__ import annotations

import pytest

from tests import factories
from tournament.models import Phase, SeatReason
from tournament.reads.projector import (
    RULES_AREA_RATIO,
    RULES_MAX_COLUMNS,
    RULES_MAX_ROWS,
    Clock,
    ScreenKind,
    View,
    build_screen,
    ladder_board,
    moves_board,
    revealed_rules,
    round_standings,
    rule_grid,
)
from tournament.rules.board_layout import LadderRow
from tournament.writes.rounds import advance_phase, reveal_rules, start_debrief

# --- reading the event ---------------------------------------------------------------


@pytest.fixture
def playing(organizer):
    """Round 1 of 12 players at 3 tables of 4."""
    event = factories.seated_event(owner=organizer, players=12, tables=3)
    return factories.start_rounds(event)


def test_round_standings_rank_each_table_by_games_then_name(playing):
    first, second, *_ = factories.seated_names(playing, 2)
    factories.report(playing, 2, second)
    factories.report(playing, 2, second)
    factories.report(playing, 2, first)
    playing.refresh_from_db()

    board = round_standings(playing, playing.current_round)
    table_two = next(f for c in board.pages[0].columns for f in c if f.table == 2)

    assert [(r.name, r.games) for r in table_two.rows][:2] == [(second, 2), (first, 1)]
    assert {r.games for r in table_two.rows[2:]} == {0}


def test_round_standings_mark_the_top_table(playing):
    board = round_standings(playing, playing.current_round)
    tops = [f.table for c in board.pages[0].columns for f in c if f.group.top]

    assert tops == [3]


def test_moves_group_players_by_the_table_they_leave_in_the_tables_order(playing):
    names = factories.seated_names(playing, 2)
    for _ in range(2):
        factories.report(playing, 2, names[3])
    factories.report(playing, 2, names[0])
    event = factories.close_current_round(playing, playing.owner)

    board, legend = moves_board(event, 2)
    groups = [f.group for c in board.pages[0].columns for f in c if not f.continued]

    assert [g.table for g in groups] == [1, 2, 3]
    table_two = groups[1]
    assert [r.name for r in table_two.rows][:2] == [names[3], names[0]]
    leader = table_two.rows[0]
    assert (leader.from_table, leader.to_table, leader.reason) == (2, 3, SeatReason.MOVES_UP)
    assert leader.mark.symbol == "▲"
    assert table_two.rows[-1].to_table == 1
    assert table_two.rows[-1].reason == SeatReason.MOVES_DOWN
    labels = [entry.label for entry in legend]
    assert str(SeatReason.MOVES_UP.label) in labels
    assert str(SeatReason.MOVES_DOWN.label) in labels


def test_moves_legend_explains_a_tie_broken_by_name_with_the_consoles_star(playing):
    event = factories.close_current_round(playing, playing.owner)  # nobody won anything: all ties

    board, legend = moves_board(event, 2)

    tied = [row for row in rows_of(board) if row.tie_broken]
    assert tied
    assert {row.tie_mark.symbol for row in tied} == {"★"}  # as on the organizer console
    assert all(row.tie_mark is None for row in rows_of(board) if not row.tie_broken)
    assert legend[-1].mark.symbol == "★"
    assert legend[-1].label == "a tie in games, broken alphabetically, decided this move"


def test_the_star_means_only_a_tie_broken_by_name_never_a_reason_to_stay(playing):
    leader = factories.seated_names(playing, 3)[0]
    factories.report(playing, 3, leader)  # wins at the top table: stays there
    event = factories.close_current_round(playing, playing.owner)

    board, legend = moves_board(event, 2)
    stays_at_top = next(row for row in rows_of(board) if row.name == leader)

    assert stays_at_top.reason == SeatReason.STAYS_AT_TOP
    assert stays_at_top.mark.symbol == "△"
    assert not stays_at_top.tie_broken
    reason_marks = {entry.mark.symbol for entry in legend if entry.mark.tone != "tie"}
    assert "△" in reason_marks
    assert "★" not in reason_marks


def rows_of(board):
    return [r for p in board.pages for c in p.columns for f in c for r in f.rows]


def test_ladder_shows_the_climb_since_the_home_table_top_table_first(playing):
    climber = factories.seated_names(playing, 2)[0]
    faller = factories.seated_names(playing, 2)[-1]
    factories.report(playing, 2, climber)
    event = factories.close_current_round(playing, playing.owner)

    board = ladder_board(event)
    rows = {row.name: row for row in rows_of(board)}

    assert rows[climber] == LadderRow(climber, 3, 1)
    assert rows[faller].table == 1
    assert rows[faller].climb == -1
    assert [row.table for row in rows_of(board)] == sorted(
        (row.table for row in rows_of(board)), reverse=True
    )
    assert len(rows) == 12


def test_final_ladder_orders_each_table_by_the_last_rounds_games(organizer):
    event = factories.start_rounds(
        factories.seated_event(owner=organizer, players=8, tables=2, rounds_planned=1)
    )
    last_alphabetically = factories.seated_names(event, 2)[-1]
    factories.report(event, 2, last_alphabetically)
    event = factories.close_current_round(event, event.owner)

    board = ladder_board(event, final=True)
    top = next(f for c in board.pages[0].columns for f in c if f.table == 2)

    assert top.rows[0].name == last_alphabetically
    assert top.rows[0].games == 1
    assert top.group.top


def test_ladder_before_anybody_is_seated_is_empty(event):
    assert ladder_board(event).is_empty


def test_revealed_rules_give_every_table_in_order(playing):
    pages = revealed_rules(playing)

    cards = [card for page in pages for card in page.cards]
    assert [card.table for card in cards] == [1, 2, 3]
    assert all(card.direction in ("Ace high", "Ace low") for card in cards)


def test_revealed_rules_page_through_many_tables_in_one_grid(organizer):
    event = factories.seated_event(owner=organizer, players=90, tables=30)
    event.tables.update(
        trump_anytime=False, trumps_broken=False, must_overtake=False, fewest_wins=False
    )

    pages = revealed_rules(event)

    assert [len(page.cards) for page in pages] == [12, 12, 6]
    assert [(page.columns, page.rows) for page in pages] == [(4, 3)] * 3


def test_clause_lines_give_a_page_fewer_and_larger_cards(organizer):
    """A rule line stays 32px or more at 1080p: a clause line takes room on every card."""
    event = factories.seated_event(owner=organizer, players=36, tables=12)
    event.tables.update(
        trump_anytime=False, trumps_broken=False, must_overtake=False, fewest_wins=False
    )
    event.tables.filter(number=5).update(fewest_wins=True)
    assert [len(page.cards) for page in revealed_rules(event)] == [6, 6]
    event.tables.filter(number=5).update(must_overtake=True)
    assert [len(page.cards) for page in revealed_rules(event)] == [4, 4, 4]
    assert rule_grid(12, clauses=2) == (2, 2)


@pytest.mark.parametrize("tables", range(1, 13))
def test_rule_cards_fill_the_screen_without_an_empty_row_or_a_sliver_of_a_card(tables):
    columns, rows = rule_grid(tables)

    assert columns <= RULES_MAX_COLUMNS
    assert rows <= RULES_MAX_ROWS
    assert columns * rows >= tables, "every card on one page"
    assert columns * rows - tables < columns, "no row left empty"
    card_ratio = RULES_AREA_RATIO * rows / columns  # width over height
    assert 0.5 <= card_ratio <= 2, f"{columns}x{rows}: cards too narrow or too flat"


@pytest.mark.parametrize(("tables", "grid"), [(2, (2, 1)), (4, (2, 2)), (6, (3, 2)), (12, (4, 3))])
def test_rule_cards_for_a_few_tables_use_the_whole_screen(tables, grid):
    assert rule_grid(tables) == grid


# --- screens ---------------------------------------------------------------------------


def test_each_phase_has_its_screen(playing):
    event = factories.seated_event(owner=playing.owner, players=8, tables=2, rounds_planned=2)
    seen = [build_screen(event).kind]
    while event.phase != Phase.ROUND:
        event = advance_phase(event=event)
        seen.append(build_screen(event).kind)
    event = factories.close_current_round(event, event.owner)
    seen.append(build_screen(event).kind)
    event = advance_phase(event=event)
    event = factories.close_current_round(event, event.owner)
    seen.append(build_screen(event).kind)
    event = start_debrief(event=event)
    seen.append(build_screen(event).kind)
    event = reveal_rules(event=event)
    seen.append(build_screen(event).kind)
    seen.append(build_screen(event, View.LADDER).kind)

    assert seen == [
        ScreenKind.SETUP,
        ScreenKind.STUDY,
        ScreenKind.PRACTICE,
        ScreenKind.ROUND,
        ScreenKind.MOVES,
        ScreenKind.FINAL,
        ScreenKind.DEBRIEF,
        ScreenKind.RULES,
        ScreenKind.LADDER,
    ]


def test_the_clock_reads_minutes_and_seconds_and_knows_when_time_is_up(playing):
    screen = build_screen(playing)
    assert screen.clock.text == "5:00"
    assert not screen.time_up

    playing.end_clock_now()
    assert build_screen(playing).clock.text == "0:00"
    assert build_screen(playing).time_up


def test_a_clock_paused_after_time_ran_out_shows_time_up_not_paused(playing):
    playing.end_clock_now()
    playing.pause_clock()
    assert playing.clock_is_paused

    clock = build_screen(playing).clock

    assert clock == Clock(0, paused=False)
    assert clock.time_up


def test_a_clock_paused_with_time_left_says_paused(playing):
    playing.pause_clock()

    assert build_screen(playing).clock == Clock(300, paused=True)


def test_unknown_view_falls_back_to_the_stage():
    assert View.parse("nonsense") == View.STAGE
    assert View.parse(None) == View.STAGE
    assert View.parse("ladder") == View.LADDER
