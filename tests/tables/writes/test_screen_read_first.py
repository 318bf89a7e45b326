"""A card and a pointing read their table before their transaction, and under the locks
only the versions (tables.writes.screen_play, Terms: read first): the writer's lock is
held for the write alone, and a table that moved on meanwhile is read again under it, so
nothing is stored from a stale read."""

from __future__ import annotations

import pytest
from django.db import connection

from tables.models import Play, ScreenSeat
from tables.writes import screen_play
from tables.writes.screen_play import game_of, play_card
from tests import factories
from tests.screen_factories import deal_at, device_of, key, play_trick, screen_event
from tournament.common.errors import Refused
from tournament.models import Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def playing(organizer):
    return factories.start_rounds(screen_event(owner=organizer))


def _to_play(event):
    deal = deal_at(event, 1)
    game = game_of(deal)
    assert game.trick is not None
    assert game.trick.to_play is not None
    player = Player.objects.select_related("event").get(pk=game.trick.to_play)
    ScreenSeat.objects.update_or_create(
        player=player, defaults={"device": device_of(player), "seen_at": deal.dealt_at}
    )
    return deal, player, game.hands[player.pk][0]


class Statements:
    """The SQL a write runs, each marked with whether it ran inside a transaction of its
    own (the test's transaction, which pytest-django holds around it, aside)."""

    def __init__(self) -> None:
        self.run: list[tuple[bool, str]] = []
        self.outside = len(connection.atomic_blocks)

    def __call__(self, execute, sql, params, many, context):
        self.run.append((len(connection.atomic_blocks) > self.outside, sql))
        return execute(sql, params, many, context)

    def inside(self) -> list[str]:
        return [sql for inside, sql in self.run if inside]


def test_a_card_holds_the_writers_lock_only_to_check_the_versions_and_write(playing):
    _deal, player, card = _to_play(playing)
    statements = Statements()
    with connection.execute_wrapper(statements):
        play_card(player=player, card=card, client_key=key(), device=device_of(player))
    reads = [sql for sql in statements.inside() if sql.startswith("SELECT")]
    # Under the lock, the event's row and the table's version alone, then the writes:
    # the plays, the tricks, the pointings and the seat's holder were read before.
    assert len(reads) == 2, "\n".join(reads)
    assert '"tournament_event"' in reads[0]
    assert reads[1].startswith('SELECT "version" FROM "tables_table"')
    assert any('"tables_play"' in sql for _inside, sql in statements.run if not _inside)


def test_a_pointing_reads_its_trick_before_the_lock_too(playing):
    deal, played = play_trick(playing, 1)
    trick = game_of(deal).trick
    assert trick is not None
    pointer = Player.objects.select_related("event").get(pk=deal.seats[0])
    ScreenSeat.objects.update_or_create(
        player=pointer, defaults={"device": device_of(pointer), "seen_at": deal.dealt_at}
    )
    statements = Statements()
    with connection.execute_wrapper(statements):
        screen_play.point_at_card(
            player=pointer,
            trick=trick.number,
            card=played[trick.leader],
            client_key=key(),
            device=device_of(pointer),
        )
    assert not any(
        sql.startswith("SELECT") and '"tables_play"' in sql for sql in statements.inside()
    )


def test_a_table_that_moved_on_after_the_read_is_read_again_under_the_lock(playing, monkeypatch):
    """The same card sent twice under two keys (a double tap across a reload), the second
    read before the first is stored: it is refused, never stored twice."""
    _deal, player, card = _to_play(playing)
    read_first = screen_play.read_first

    def read_then_the_first_tap_lands(*args, **kwargs):
        seated = read_first(*args, **kwargs)
        monkeypatch.setattr(screen_play, "read_first", read_first)
        play_card(player=player, card=card, client_key=key(), device=device_of(player))
        return seated

    monkeypatch.setattr(screen_play, "read_first", read_then_the_first_tap_lands)
    with pytest.raises(Refused):
        play_card(player=player, card=card, client_key=key(), device=device_of(player))
    assert Play.objects.filter(player=player, card=card).count() == 1


def test_a_retry_is_answered_before_any_lock(playing):
    _deal, player, card = _to_play(playing)
    sent = key()
    play_card(player=player, card=card, client_key=sent, device=device_of(player))
    statements = Statements()
    with connection.execute_wrapper(statements):
        done = play_card(player=player, card=card, client_key=sent, device=device_of(player))
    assert done.repeated
    assert statements.inside() == []
