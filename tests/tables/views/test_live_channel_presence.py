"""The live channel says who is there: a stream that opens sights its player at once (a
screen opened, or back after a server restart), not at the next heartbeat, and takes no
seat; the heartbeat keeps every open stream's player sighted."""

from __future__ import annotations

import asyncio
import time

import pytest

from tables.models import ScreenSeat, ScreenSighting
from tests.screen_factories import deal_at
from tests.tables.views.test_live_channel import WAIT, Screen, closing, playing, run, scope
from tournament.models import Player
from tournament.serving import live_channel

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]

__all__ = ["playing"]  # the fixture, shared with the channel's own tests


def _sighted(player: Player) -> bool:
    return ScreenSighting.objects.filter(player=player).exists()


async def until_sighted(player: Player) -> float:
    """Seconds until the player is sighted (a read in a thread, as another server's)."""
    started = time.monotonic()
    while not await asyncio.to_thread(closing, _sighted, player):
        assert time.monotonic() - started < WAIT, f"{player.name} never sighted"
        await asyncio.sleep(0.02)
    return time.monotonic() - started


def test_a_stream_that_opens_sights_its_player_before_the_next_heartbeat(playing, monkeypatch):
    monkeypatch.setattr(live_channel, "HEARTBEAT_SECONDS", 3600.0)
    first, second = (Player.objects.get(pk=pk) for pk in deal_at(playing, 1).seats[:2])

    def open_stream(player: Player) -> tuple[Screen, asyncio.Task]:
        screen = Screen()
        stream = live_channel.stream(scope(player.token), screen.receive, screen.send, player.token)
        return screen, asyncio.create_task(stream)

    async def play() -> float:
        screens = [open_stream(first)]
        await until_sighted(first)  # the watcher's first round: its heartbeat is due
        screens.append(open_stream(second))  # the next heartbeat is an hour away
        waited = await until_sighted(second)
        for screen, task in screens:
            screen.leave.set()
            await asyncio.wait_for(task, WAIT)
        return waited

    assert run(play()) < WAIT
    assert not ScreenSeat.objects.filter(player__in=[first, second]).exists()
