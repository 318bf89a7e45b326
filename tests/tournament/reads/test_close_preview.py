"""What closing a round would do, read before confirming: disputes, absent and removed
players, the next round's table sizes, at a constant number of queries."""

from __future__ import annotations

import pytest

from tables.models import GameStatus
from tests import factories
from tests.tournament.writes.test_rounds import round_one
from tournament.models import Player, PlayerStatus
from tournament.reads.close_preview import preview_close
from tournament.writes.seating import set_player_status

pytestmark = pytest.mark.django_db


def test_preview_lists_disputes_absent_players_and_next_sizes(organizer):
    event = round_one(organizer)
    at_two = [n for n, t in factories.seats_of(event, 1).items() if t == 2]
    factories.report(event, 2, at_two[0], key="k1", game_number=1)
    factories.report(event, 2, at_two[1], key="k2", game_number=1)
    set_player_status(player=Player.objects.get(name=at_two[2]), status=PlayerStatus.ABSENT)
    preview = preview_close(event.current_round)
    assert [g.status for g in preview.disputed] == [GameStatus.DISPUTED]
    assert preview.not_present == {at_two[2]}
    assert sum(preview.next_sizes.values()) == 11
    assert preview.seats_next_round


def test_preview_tells_removed_players_from_absent_ones(organizer):
    event = round_one(organizer)
    absent, removed = sorted(factories.seats_of(event, 1))[:2]
    set_player_status(player=Player.objects.get(name=absent), status=PlayerStatus.ABSENT)
    Player.objects.filter(name=removed).update(status=PlayerStatus.REMOVED)
    preview = preview_close(event.current_round)
    assert preview.not_present == {absent, removed}
    assert preview.removed == {removed}


def test_preview_costs_the_same_queries_at_any_size(organizer, django_assert_max_num_queries):
    for players, tables in ((20, 5), (500, 125)):
        event = round_one(organizer, players=players, tables=tables)
        with django_assert_max_num_queries(8):
            preview = preview_close(event.current_round)
            assert preview.moves_by_table
