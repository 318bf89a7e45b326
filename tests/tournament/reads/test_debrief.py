"""The debrief's read model: disputes per table-round, the rules that met there, paths."""

from __future__ import annotations

import pytest

from tables.models import Game
from tables.writes.corrections import add_game, settle_game
from tests import factories
from tournament.models import Player
from tournament.reads.debrief import build_debrief
from tournament.rules.clash import ClashKind
from tournament.writes.rounds import advance_phase, start_debrief

pytestmark = pytest.mark.django_db


def played_event(organizer, *, players: int = 8, tables: int = 2, rounds: int = 2):
    """Every round played with one game a table; at table 1 in round 1 the phones
    disagreed, and the organizer settled it."""
    event = factories.start_rounds(
        factories.seated_event(
            owner=organizer, players=players, tables=tables, rounds_planned=rounds
        )
    )
    first, second = factories.seated_names(event, 1)[:2]
    factories.report(event, 1, first, game_number=1)
    factories.report(event, 1, second, game_number=1)
    game = Game.objects.get(table__number=1, round__number=1, table__event=event)
    settle_game(game=game, winner=Player.objects.get(event=event, name=first), by=organizer)
    while True:
        for table in range(2, tables + 1):
            factories.report(event, table, factories.seated_names(event, table)[0])
        event = factories.close_current_round(event, organizer)
        if event.is_last_round:
            return start_debrief(event=event)
        event = advance_phase(event=event)


def test_a_game_ever_disputed_counts_in_its_table_round_even_once_settled(organizer):
    data = build_debrief(played_event(organizer))

    assert data.tables == [1, 2]
    assert data.rounds == [1, 2]
    assert {key: cell.disputes for key, cell in data.cells.items()} == {
        (1, 1): 1,
        (2, 1): 0,
        (1, 2): 0,
        (2, 2): 0,
    }


def test_a_game_the_organizer_added_by_hand_is_no_dispute(organizer):
    event = factories.start_rounds(
        factories.seated_event(owner=organizer, players=8, tables=2, rounds_planned=1)
    )
    winner = factories.seated_players(event, 2)[0]
    add_game(
        round_=event.current_round, table=factories.table(event, 2), winner=winner, by=organizer
    )
    event = start_debrief(event=factories.close_current_round(event, organizer))

    assert build_debrief(event).cells[(2, 1)].disputes == 0


def test_players_bring_their_home_tables_rules_to_the_tables_they_move_to(organizer):
    data = build_debrief(played_event(organizer))

    # Round 1 is at home: one rule set per table. Then the winner of table 1 moves up and
    # the loser of table 2 down; neighbouring tables differ in direction (tables.rules.variants).
    assert data.cells[(1, 1)].kind == data.cells[(2, 1)].kind == ClashKind.NONE
    assert data.cells[(1, 2)].kind == data.cells[(2, 2)].kind == ClashKind.DIRECTION
    assert data.sentence == (
        "Disputes came at 0 of 2 table-rounds where ace-high and ace-low players met. "
        "Where everyone had studied the same rules: 1 of 2."
    )


def test_every_player_has_a_path_and_the_flows_add_up_to_the_players(organizer):
    data = build_debrief(played_event(organizer))

    assert len(data.paths) == 8
    assert all(len(path.tables) == 2 and None not in path.tables for path in data.paths)
    assert sum(data.flows.values()) == 8
    assert sorted(path.climb for path in data.paths).count(0) == 6


def test_a_round_planned_but_not_played_has_no_column(organizer):
    event = factories.start_rounds(
        factories.seated_event(owner=organizer, players=8, tables=2, rounds_planned=3)
    )
    event = start_debrief(event=factories.close_current_round(event, organizer))

    assert build_debrief(event).rounds == [1]


@pytest.mark.parametrize(("players", "tables"), [(20, 5), (500, 125)])
def test_the_debrief_costs_the_same_few_queries_at_any_size(
    organizer, django_assert_max_num_queries, players, tables
):
    event = played_event(organizer, players=players, tables=tables, rounds=2)
    event.refresh_from_db()
    with django_assert_max_num_queries(5):
        data = build_debrief(event)
        assert data.sentence
    assert len(data.paths) == players
