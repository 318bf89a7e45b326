"""The live channel of screen tables (tournament.serving.live_channel), driven as an ASGI server
drives it: a stream opens, a card is played by a write this process is not told about (as
through another app server on the same database), and the stream pushes the table's new
state; a screen whose event changed is told to fetch its live part; a bad link or host is
refused."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connections

from tables.writes.screen_play import game_of, play_card
from tables.writes.silent_channel import draw_stroke, make_gesture
from tests import factories
from tests.event_loops import run
from tests.screen_factories import (
    deal_at,
    device_of,
    everyone_points,
    key,
    play_trick,
    screen_event,
    short_hands,
)
from tournament.common import wake
from tournament.models import Player, Seat
from tournament.rules.movement import plan_moves
from tournament.serving import live_channel
from tournament.writes.rounds import ClockAction, advance_phase, change_clock, close_round

# On PostgreSQL too: the watcher reads the counters another server's write bumps.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]


WAIT = 30  # seconds between two messages: a write wakes the watcher at once, but a machine
# running two suites at once held one back past 10 s (its threads queue behind the tests)


def scope(token: str, host: bytes = b"localhost") -> dict:
    return {
        "type": "http",
        "method": "GET",
        "path": f"/t/p/{token}/stream/",
        "headers": [(b"host", host)],
    }


class Screen:
    """One stream's side of the exchange: what the channel sent, and a way to leave."""

    def __init__(self) -> None:
        self.sent: list[dict] = []
        self.arrived = asyncio.Event()
        self.leave = asyncio.Event()

    async def receive(self) -> dict:
        await self.leave.wait()
        return {"type": "http.disconnect"}

    async def send(self, message: dict) -> None:
        self.sent.append(message)
        self.arrived.set()

    @property
    def body(self) -> str:
        return b"".join(m.get("body", b"") for m in self.sent[1:]).decode()

    async def until(self, text: str) -> None:
        """Wait for ``text`` WAIT seconds in all: beats keep coming while it does not, so a
        wait for the next message alone would never end."""
        async with asyncio.timeout(WAIT):
            while text not in self.body:
                self.arrived.clear()
                await self.arrived.wait()


@pytest.fixture
def playing(organizer, settings, monkeypatch):
    settings.ALLOWED_HOSTS = ["localhost"]
    # As on another server: no write of this process wakes the watcher; it reads.
    monkeypatch.setattr(wake, "_sleepers", [])
    yield factories.start_rounds(screen_event(owner=organizer))
    # The channel's threads keep their connections open, as a server's do; closed here,
    # so the test database can be emptied and dropped.
    live_channel.close_connections()


def closing(function, *args, **kwargs):
    """Run a write in asyncio's thread as another server would, and close that thread's
    connection after it (the thread outlives the test)."""
    try:
        return function(*args, **kwargs)
    finally:
        connections.close_all()


def _play_first_card(event) -> str:
    deal = deal_at(event, 1)
    game = game_of(deal)
    assert game.trick is not None
    assert game.trick.to_play is not None
    player = Player.objects.get(pk=game.trick.to_play)
    card = game.hands[player.pk][0]
    play_card(player=player, card=card, client_key=key(), device=device_of(player))
    return card


def test_a_card_played_elsewhere_is_pushed_with_the_tables_state(playing):
    watcher = Player.objects.get(pk=deal_at(playing, 1).seats[3])

    async def play() -> str:
        screen = Screen()
        task = asyncio.create_task(
            live_channel.stream(scope(watcher.token), screen.receive, screen.send, watcher.token)
        )
        await screen.until("data: ")
        card = await asyncio.to_thread(closing, _play_first_card, playing)
        await screen.until(f'data-card="{card}"')
        screen.leave.set()
        await asyncio.wait_for(task, WAIT)
        return screen.body

    body = run(play())
    assert body.startswith("retry: ")
    assert "event: table" in body
    assert 'id="card-' not in body  # the pushed state holds no hand


def test_a_change_of_the_event_asks_the_screen_to_fetch(playing):
    watcher = Player.objects.get(pk=deal_at(playing, 1).seats[0])

    async def play() -> str:
        screen = Screen()
        task = asyncio.create_task(
            live_channel.stream(scope(watcher.token), screen.receive, screen.send, watcher.token)
        )
        await screen.until("data: ")
        await asyncio.to_thread(closing, change_clock, event=playing, action=ClockAction.PAUSE)
        paused = await asyncio.to_thread(closing, _shared_version, playing)
        await screen.until(f"data: {paused}.")  # the key, not a beat ("data: 1")
        screen.leave.set()
        await asyncio.wait_for(task, WAIT)
        return screen.body

    last = run(play()).strip().split("\n\n")[-1]
    assert last.startswith("data: ")  # a key: the screen fetches its live part
    assert "event: table" not in last


def test_a_table_s_render_holds_up_neither_the_versions_nor_the_event_s_news(playing, monkeypatch):
    """A render runs on a thread of its own: while one is slow, the watcher reads on and
    a change of the event reaches the stream; the held table's state follows when ready."""
    held, asked = threading.Event(), threading.Event()
    drawn = live_channel.pushed_table_parts

    def slow(*args, **kwargs):
        if not asked.is_set():
            asked.set()
            held.wait(WAIT)
        return drawn(*args, **kwargs)

    monkeypatch.setattr(live_channel, "pushed_table_parts", slow)
    watcher = Player.objects.get(pk=deal_at(playing, 1).seats[3])

    async def play() -> tuple[str, bool]:
        screen = Screen()
        task = asyncio.create_task(
            live_channel.stream(scope(watcher.token), screen.receive, screen.send, watcher.token)
        )
        await screen.until("data: ")
        card = await asyncio.to_thread(closing, _play_first_card, playing)
        await asyncio.to_thread(asked.wait, WAIT)  # the card's render started, and waits
        await asyncio.to_thread(closing, change_clock, event=playing, action=ClockAction.PAUSE)
        paused = await asyncio.to_thread(closing, _shared_version, playing)
        await screen.until(f"data: {paused}.")  # the key, not a beat ("data: 1")
        still_held = not held.is_set()
        held.set()
        await screen.until(f'data-card="{card}"')
        screen.leave.set()
        await asyncio.wait_for(task, WAIT)
        return screen.body, still_held

    body, still_held = run(play())
    assert still_held  # the event's news came while the table's render was held
    assert "event: table" in body


def test_a_table_s_renders_never_overlap_even_on_several_threads(playing, monkeypatch):
    """On PostgreSQL several tables are drawn side by side; one table's renders run one
    after the other, so its states are pushed in order."""
    kept, renders = live_channel._RENDERS, ThreadPoolExecutor(max_workers=3)
    monkeypatch.setattr(live_channel, "_RENDERS", renders)
    held, asked = threading.Event(), threading.Event()
    drawing: list[int] = []
    overlapped: list[int] = []
    drawn = live_channel.pushed_table_parts

    def one_at_a_time(table_id, *args, **kwargs):
        if table_id in drawing:
            overlapped.append(table_id)
        drawing.append(table_id)
        try:
            if not asked.is_set():
                asked.set()
                held.wait(WAIT)  # the first card's render, held while the second comes
            return drawn(table_id, *args, **kwargs)
        finally:
            drawing.remove(table_id)

    monkeypatch.setattr(live_channel, "pushed_table_parts", one_at_a_time)
    watcher = Player.objects.get(pk=deal_at(playing, 1).seats[3])

    async def play() -> None:
        screen = Screen()
        task = asyncio.create_task(
            live_channel.stream(scope(watcher.token), screen.receive, screen.send, watcher.token)
        )
        await screen.until("data: ")
        await asyncio.to_thread(closing, _play_first_card, playing)
        await asyncio.to_thread(asked.wait, WAIT)
        second = await asyncio.to_thread(closing, _play_first_card, playing)
        held.set()
        await screen.until(f'data-card="{second}"')
        screen.leave.set()
        await asyncio.wait_for(task, WAIT)

    try:
        run(play())
    finally:
        held.set()
        _close_each_thread(renders, 3)
        monkeypatch.setattr(live_channel, "_RENDERS", kept)
    assert overlapped == []


def _close_each_thread(pool: ThreadPoolExecutor, threads: int) -> None:
    """Close the connection each of the pool's threads holds, then the pool."""
    together = threading.Barrier(threads)

    def close() -> None:
        together.wait(WAIT)  # one call on each thread
        connections.close_all()

    for closing_one in [pool.submit(close) for _ in range(threads)]:
        closing_one.result()
    pool.shutdown()


@pytest.mark.parametrize(
    ("token", "host", "status"), [("nope-not-one", b"localhost", 404), (None, b"evil.example", 400)]
)
def test_a_bad_link_or_host_is_refused(playing, token, host, status):
    player = Player.objects.filter(event=playing).first()
    token = token or player.token
    screen = Screen()
    run(live_channel.stream(scope(token, host), screen.receive, screen.send, token))
    assert screen.sent[0]["status"] == status


def test_a_quiet_stream_beats_and_notes_the_player_as_there(playing, monkeypatch):
    from tables.models import ScreenSeat

    # A beat is an event the page hears (a comment would not reach its script).
    monkeypatch.setattr(live_channel, "STREAM_BEAT_SECONDS", 0.1)
    monkeypatch.setattr(live_channel, "HEARTBEAT_SECONDS", 0.2)
    watcher = Player.objects.get(pk=deal_at(playing, 1).seats[2])
    ScreenSeat.objects.create(player=watcher, device="d", seen_at="2020-01-01T00:00:00Z")

    async def play() -> str:
        screen = Screen()
        task = asyncio.create_task(
            live_channel.stream(scope(watcher.token), screen.receive, screen.send, watcher.token)
        )
        await screen.until("event: beat\ndata: 1\n\n")
        await screen.until("event: beat\ndata: 1\n\nevent: beat\ndata: 1\n\n")
        screen.leave.set()
        await asyncio.wait_for(task, WAIT)
        return screen.body

    run(play())
    assert ScreenSeat.objects.get(player=watcher).seen_at.year > 2020


def _play_out_a_game(event, table_number: int) -> None:
    """A whole game at the table: every trick to the leader's card."""
    deal = deal_at(event, table_number)
    while (trick := game_of(deal).trick) is not None:
        _deal, played = play_trick(event, table_number)
        everyone_points(deal, played[trick.leader])


def _close_and_open_round_two(event, organizer) -> None:
    event.refresh_from_db()
    close_round(round_=event.current_round, by=organizer)
    event.refresh_from_db()
    advance_phase(event=event)


def _play_first_card_at(event, table_number: int) -> str:
    deal = deal_at(event, table_number)
    game = game_of(deal)
    assert game.trick is not None
    assert game.trick.to_play is not None
    player = Player.objects.get(pk=game.trick.to_play)
    card = game.hands[player.pk][0]
    play_card(player=player, card=card, client_key=key(), device=device_of(player))
    return card


def test_a_moved_player_s_stream_follows_the_new_table_never_the_old_one(
    playing, organizer, monkeypatch
):
    short_hands(monkeypatch, cards=1)
    _play_out_a_game(playing, 1)  # the deal before the patch: seven tricks
    _play_out_a_game(playing, 1)  # a one-trick game
    moves = plan_moves(playing.rounds.get(number=1).games_won_by_table())
    name = next(name for name, table in moves.items() if table == 2 and name in _seated(1))
    mover = Player.objects.get(event=playing, name=name)

    async def play() -> str:
        screen = Screen()
        task = asyncio.create_task(
            live_channel.stream(scope(mover.token), screen.receive, screen.send, mover.token)
        )
        await screen.until("data: ")
        await asyncio.to_thread(closing, _close_and_open_round_two, playing, organizer)
        # Told the event's version once round two is open (the close and the opening are
        # two changes: a card played after the first alone may reach the stream as part of
        # its catch-up key, which a browser fetches, rather than as a pushed state).
        opened = await asyncio.to_thread(closing, _shared_version, playing)
        await screen.until(f"data: {opened}.")
        await asyncio.to_thread(closing, _play_first_card_at, playing, 1)  # the old table
        card = await asyncio.to_thread(closing, _play_first_card_at, playing, 2)
        await screen.until(f'data-card="{card}"')
        screen.leave.set()
        await asyncio.wait_for(task, WAIT)
        return screen.body

    body = run(play())
    assert f'data-deal="{deal_at(playing, 2).pk}"' in body  # the new table's state, pushed
    assert f'data-deal="{deal_at(playing, 1).pk}"' not in body  # never the old table's


def _shared_version(event) -> int:
    event.refresh_from_db()
    return event.shared_version


def _seated(table_number: int) -> set[str]:
    return set(
        Seat.objects.filter(round__number=1, table__number=table_number).values_list(
            "player__name", flat=True
        )
    )


def test_the_pads_strokes_are_pushed_only_when_the_pad_changed_and_only_the_new_ones(playing):
    deal = deal_at(playing, 1)
    drawer, watcher = (Player.objects.get(pk=deal.seats[n]) for n in (0, 3))
    device = device_of(drawer)
    acts = [
        (
            lambda: draw_stroke(
                player=drawer, kind="red", points="10,10 40,40", client_key=key(), device=device
            ),
            "10,10 40,40",
        ),
        (
            lambda: make_gesture(player=drawer, kind="yes", client_key=key(), device=device),
            'href="#g-yes"',
        ),
        (
            lambda: draw_stroke(
                player=drawer, kind="blue", points="50,50", client_key=key(), device=device
            ),
            "50,50 50,50",
        ),
    ]

    async def play() -> list[str]:
        screen = Screen()
        task = asyncio.create_task(
            live_channel.stream(scope(watcher.token), screen.receive, screen.send, watcher.token)
        )
        await screen.until("data: ")
        pushes = []
        for act, seen in acts:
            start = len(screen.body)
            await asyncio.to_thread(closing, act)
            await screen.until(seen)
            pushes.append(screen.body[start:])
        screen.leave.set()
        await asyncio.wait_for(task, WAIT)
        return pushes

    stroke, gesture, another = run(play())
    assert 'id="pad-strokes"' in stroke
    assert "pad-kept" not in stroke
    assert 'id="pad-kept"' in gesture  # the pad's version alone: the screen keeps its strokes
    assert "<polyline" not in gesture
    assert 'id="pad-added"' in another  # the new stroke alone
    assert "50,50 50,50" in another
    assert "10,10 40,40" not in another
