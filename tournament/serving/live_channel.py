"""The pushed channel of screen tables: server-sent events that tell a player's screen the
moment its table changes, so a card played shows on the other screens at the table at once
instead of at the next poll.

Terms:
    stream     GET /t/p/<token>/stream/ (the URLconf's phone:screen_stream, read by
               stream_path), answered ``text/event-stream`` by this module's ASGI coroutine
               (tournament.serving.asgi routes it here, before Django), its host checked
               and its cookies read by Django's own code, as a page's. An event
               carries either the table's public state (see Terms: state), which holds
               no hand, or the key alone, and then the page fetches its live part
               through Django as any poll does (tables.views.screen): the channel sends
               nothing that the table's own screens do not all see, and needs no rule
               of its own about what a screen may see.
    key        what a player's screen depends on that others change: the event's shared
               version and the version of the table the player sits at
               (tables.models.TableQuerySet.bump_version).
    state      when only the table changed (a card, a pointing, a trick taken), the
               stream pushes the table's public state itself (``event: table``, rendered
               once per table and language by tables.views.screen_pushed.pushed_table_state, with
               no hand in it): the screens swap it in without asking. A change of the event
               (a phase, the clock, a close) is sent as the key alone, and the screens
               fetch their live part.
    pad kept   a state carries the pad's strokes only to a screen that was last pushed
               another version of the pad (``Follower.pad_told``); the others get the
               pad's version alone and keep the strokes they show (a screen whose pad is
               not that version fetches its live part, static/js/screen.js); a screen
               pushed a version that the pad's last clear left in place gets the strokes
               added since. A gesture, a card or a stroke at a table with a full pad is
               pushed in a few kilobytes.
    watcher    one per server process: while any stream is open, it reads the versions
               of the events and tables its streams follow, in two small queries, and
               wakes the streams whose key changed; then it rests until a write wakes it
               (tournament.common.wake: this process's writes at once, another process's
               by PostgreSQL's NOTIFY or, on SQLite, by the write-ahead log's change,
               looked at every LOG_LOOK_SECONDS without a query), or SAFETY_TICK_SECONDS
               at most. The versions are the truth: a wake says only "look".
    render     a table's state drawn for its followers (``Render``), on the channel's
               render threads (RENDER_THREADS; a table's renders one after the other, so
               its states are pushed in order): the watcher asks and goes on reading the
               versions; each table's followers are woken the moment their table's state
               is ready, not after every changed table's. Streams woken while a render of
               their table waits join it: under heavy play a table is drawn once for
               several changes, as it stands when its render starts.
    beat       a stream with nothing else to say sends ``event: beat`` every
               STREAM_BEAT_SECONDS (tournament.common.polling): it keeps proxies from
               closing an idle stream, and tells the page its stream is alive (a comment
               line would reach no script). A page that hears neither a beat nor an event
               for two beats polls as if it had no stream (static/js/screen.js).
    heartbeat  every HEARTBEAT_SECONDS the watcher notes every player whose stream is
               open as still there (tables.writes.screen_seats.note_seen), in one write for
               the process.
    arrival    a stream that opens (a screen opened, or back after a server restart: the
               browser reconnects within RETRY_MILLISECONDS) is noted at the watcher's
               next round, with any others that opened meanwhile, not at the next
               heartbeat: a screen that is open is never taken for gone, even when the
               server was away for a while.

The database is read in threads of the channel's own, with Django's ORM, so the event loop
never waits on it and each thread keeps one persistent connection: ``_DB`` reads the
versions, ``_ARRIVALS`` whom a stream follows, ``_RENDERS`` draw the tables' states,
``_WRITES`` notes who is there.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import re
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.core.handlers.wsgi import WSGIRequest
from django.db import close_old_connections, connections
from django.urls import reverse

from tables.reads.screen_play import screen_round
from tables.reads.screen_rows import versions_of
from tables.views.screen_pushed import PushedState, pushed_table_parts
from tables.writes.screen_seats import note_seen
from tournament.common import stages
from tournament.common.languages import PHONE_LANGUAGE_COOKIE, known_language
from tournament.common.polling import STREAM_BEAT_SECONDS
from tournament.common.wake import LogWatch, listen_for_notices, register_sleeper
from tournament.models import Phase, Player, Seat, looks_like_token
from tournament.serving.bridge import wsgi_environ

SAFETY_TICK_SECONDS = 2.0
LOG_LOOK_SECONDS = 0.05  # a stat of a file, on the event loop: no thread, no query
HEARTBEAT_SECONDS = 15.0
RETRY_MILLISECONDS = 1000
BEAT = b"event: beat\ndata: 1\n\n"  # an event's data may not be empty, or it is not fired
STREAM_URL_NAME = "phone:screen_stream"  # tables/urls/phone.py

logger = logging.getLogger(__name__)
_DB = ThreadPoolExecutor(max_workers=1, thread_name_prefix="live-channel")
# Whom a stream follows is read on a thread of its own: when a room's screens all open at
# once (the round starts, the server is back after a restart), 250 of those reads queued
# the watcher's next read of the versions for seconds (bench/screen_room.py: watch p99).
_ARRIVALS = ThreadPoolExecutor(max_workers=1, thread_name_prefix="live-channel-arrivals")
# The tables' states are drawn on threads of their own: the versions' next read never
# waits behind a render, and each table is pushed the moment its own render is done. On
# PostgreSQL a render spends most of its time waiting for its nine queries' answers, so
# several tables are drawn side by side (one table's renders still one after the other:
# Terms, render); on SQLite a render is the interpreter's work alone, and one thread is as
# fast as several.
RENDER_THREADS = 1 if settings.DATABASES["default"]["ENGINE"].endswith("sqlite3") else 3
_RENDERS = ThreadPoolExecutor(max_workers=RENDER_THREADS, thread_name_prefix="live-channel-renders")
# Presence is a write: it waits for the database's write lock, which must never hold up
# the versions' reads and the pushes, so it has a thread of its own.
_WRITES = ThreadPoolExecutor(max_workers=1, thread_name_prefix="live-channel-writes")

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


@dataclass(eq=False)
class Follower:
    """One open stream: whose screen, and what it has been told."""

    token: str
    player_id: int
    event_id: int
    table_id: int | None
    key: tuple[int, int]  # as the watcher last read it
    language: str = ""
    told: tuple[int, int] = (0, 0)  # as the screen was last told
    state: PushedState | None = None  # the table's state to push
    pad_told: int = -1  # the pad's version the screen was last pushed (Terms: pad kept)
    marks: tuple[float, float, float] = (0.0, 0.0, 0.0)  # the push's (tournament.common.stages)
    woken: asyncio.Event = field(default_factory=asyncio.Event)


# --- reading the database (in the channel's thread) ---------------------------------------


def _in_db_thread(
    function: Callable[..., Any], *args: Any, pool: ThreadPoolExecutor = _DB
) -> Awaitable[Any]:
    def run() -> Any:
        close_old_connections()  # as Django does around each request
        return function(*args)

    return asyncio.get_running_loop().run_in_executor(pool, run)


def _follow(token: str, own_language: str = "") -> Follower | None:
    """The player a stream's token names, their table in the round that holds cards (or
    their latest seat), and its key; None for a link that names nobody."""
    player = (
        Player.objects.on_roster().filter(token=token).select_related("event").first()
        if looks_like_token(token)
        else None
    )
    if player is None or not player.event.on_screens:
        return None
    event = player.event
    where = screen_round(event)
    seats = Seat.objects.filter(player=player)
    if where is not None:
        seats = seats.filter(round=where[0])
    elif event.phase == Phase.BETWEEN_ROUNDS:
        seats = seats.filter(round__number=event.round_number)
    seat = seats.order_by("-round__number").values_list("table_id", "table__version").first()
    table_id, version = seat if seat else (None, 0)
    language = known_language(own_language) or known_language(event.language) or "en"
    key = (event.shared_version, version)
    return Follower(token, player.pk, event.pk, table_id, key, language)


def _seen(player_ids: set[int]) -> None:
    note_seen(player_ids=player_ids)


# --- the watcher --------------------------------------------------------------------------


class Watcher:
    """Wakes the streams of this process whose key changed (see Terms: watcher)."""

    def __init__(self) -> None:
        self.followers: set[Follower] = set()
        self.task: asyncio.Task | None = None
        self.poke = asyncio.Event()
        self.seen_at = 0.0  # when the open streams' players were last noted as there
        self.arrived: set[int] = set()  # players whose streams opened since (Terms: arrival)
        self.noting: asyncio.Future | None = None  # that write, while it runs
        self.log = LogWatch()
        self.looking: asyncio.TimerHandle | None = None  # the next look at the log
        self.woke_at = 0.0  # when a write of this process first woke it since its last read
        self.renders: dict[tuple[int, str], Render] = {}  # the latest asked, by table, language

    def add(self, follower: Follower) -> None:
        self.followers.add(follower)
        self.arrived.add(follower.player_id)
        self.poke.set()  # noted as there at the next round, now (Terms: arrival)
        if self.task is None or self.task.done():
            listen_for_notices()
            self.task = asyncio.get_running_loop().create_task(self.run())
        if self.log.path and self.looking is None:
            self.look_at_log()

    def remove(self, follower: Follower) -> None:
        self.followers.discard(follower)

    async def run(self) -> None:
        while self.followers:
            followers = list(self.followers)
            self.poke.clear()  # before reading: a wake from now on makes another round
            woke, self.woke_at = self.woke_at or time.time(), 0.0
            try:
                events, tables = await _in_db_thread(
                    partial(
                        versions_of,
                        event_ids={f.event_id for f in followers},
                        table_ids={f.table_id for f in followers if f.table_id is not None},
                    )
                )
            except Exception:  # the database away for a moment: try again, say it once
                logger.warning("The live channel could not read the versions.", exc_info=True)
                await asyncio.sleep(1)
                continue
            changed = []
            for follower in followers:
                key = (
                    events.get(follower.event_id, 0),
                    tables.get(follower.table_id, 0) if follower.table_id else 0,
                )
                if key != follower.key:
                    follower.key = key
                    changed.append(follower)
            self.push_states(changed, woke=woke, read=time.time())
            self.note_present(followers)
            await self.rest()

    async def rest(self) -> None:
        """Until a wake, a change of the database's log, or the safety tick (Terms: watcher)."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.poke.wait(), SAFETY_TICK_SECONDS)

    def look_at_log(self) -> None:
        """On SQLite, while streams are open: a stat of the log every LOG_LOOK_SECONDS, a
        plain callback of the loop (a task a look cost 35 times as much: bench/idle_streams.py)."""
        if not self.followers:
            self.looking = None
            return
        if self.log.changed():
            self.poke.set()
        self.looking = asyncio.get_running_loop().call_later(LOG_LOOK_SECONDS, self.look_at_log)

    def note_present(self, followers: list[Follower]) -> None:
        """The players whose streams just opened are there (see Terms: arrival), and
        every HEARTBEAT_SECONDS all whose streams are open still are (Terms: heartbeat):
        one queued write for the whole process at a time, on its own thread and not
        awaited, so the watcher never waits for the write lock."""
        if self.noting is not None and not self.noting.done():
            return  # the next round notes whoever arrived meanwhile
        now = asyncio.get_running_loop().time()
        if now - self.seen_at >= HEARTBEAT_SECONDS:
            self.seen_at = now
            players = {follower.player_id for follower in followers} | self.arrived
        elif self.arrived:
            players = set(self.arrived)
        else:
            return
        self.arrived.clear()
        self.noting = asyncio.ensure_future(_in_db_thread(_seen, players, pool=_WRITES))
        self.noting.add_done_callback(_log_failure)

    def push_states(self, changed: list[Follower], *, woke: float, read: float) -> None:
        """Wake the streams whose event changed (they are sent the key) at once, and have
        the state of each table whose followers saw only the table change rendered, once
        per language, each table's followers woken when theirs is ready (see Terms:
        state, render). Not awaited: the watcher reads again meanwhile."""
        for follower in changed:
            if follower.table_id is None or follower.key[0] != follower.told[0]:
                follower.marks = (woke, read, time.time())
                follower.woken.set()
                continue
            wanted = (follower.table_id, follower.language)
            render = self.renders.get(wanted)
            if render is None or render.started:
                after = render.task if render is not None else None
                render = self.renders[wanted] = Render(woke=woke, read=read, after=after)
                render.task = asyncio.ensure_future(self.render(wanted, render))
                render.task.add_done_callback(_log_failure)
            render.followers.add(follower)

    async def render(self, wanted: tuple[int, str], render: Render) -> None:
        table_id, language = wanted
        if render.after is not None:  # the table's render before it: never out of order
            await asyncio.wait({render.after})
        try:
            state = await _in_db_thread(_render_state, table_id, language, render, pool=_RENDERS)
        except Exception:  # the screens then fetch their live part, as without a state
            logger.warning("The live channel could not render a table.", exc_info=True)
            state = None
        if self.renders.get(wanted) is render:
            del self.renders[wanted]
        for follower in render.followers:
            follower.state = state
            follower.marks = (render.woke, render.read, time.time())
            follower.woken.set()


@dataclass(eq=False)
class Render:
    """A table's state asked for, in one language (see Terms: render). Streams join it
    until its thread starts reading: it then reads the table as it stands, newer than
    what they were woken for; a stream woken after that is drawn a render of its own,
    which starts once this one is done, so a table's states are pushed in order."""

    woke: float  # the marks of the round that asked first (tournament.common.stages)
    read: float
    followers: set[Follower] = field(default_factory=set)
    started: bool = False  # set by the render's thread, before it reads
    after: asyncio.Future | None = None  # the render of this table before, while it runs
    task: asyncio.Future | None = None  # this one's, for the render after it to wait for


def _log_failure(done: asyncio.Future) -> None:
    if not done.cancelled() and done.exception() is not None:
        logger.warning("The live channel's thread failed.", exc_info=done.exception())


def _render_state(table_id: int, language: str, render: Render) -> PushedState | None:
    render.started = True  # one assignment, seen by the loop at once (the interpreter's lock)
    return pushed_table_parts(table_id, language, {f.pad_told for f in list(render.followers)})


def close_connections() -> None:
    """Close the channel's threads' connections (they keep them open, as a server's
    threads do): tests do it so the test database can be emptied and dropped."""
    for pool in (_DB, _ARRIVALS, _RENDERS, _WRITES):
        pool.submit(connections.close_all).result()


_watchers: dict[asyncio.AbstractEventLoop, Watcher] = {}


def _watcher() -> Watcher:
    loop = asyncio.get_running_loop()
    if loop not in _watchers:
        _watchers[loop] = Watcher()
    return _watchers[loop]


def wake_watchers() -> None:
    """Called once a write in this process committed (tournament.common.wake): the
    watchers read the versions now rather than at their next tick. Safe from any thread."""
    for loop, watcher in list(_watchers.items()):
        if not loop.is_closed():
            watcher.woke_at = watcher.woke_at or time.time()
            loop.call_soon_threadsafe(watcher.poke.set)


register_sleeper(wake_watchers)


# --- the ASGI coroutine -------------------------------------------------------------------


def stream_path() -> re.Pattern[str]:
    """The streams' paths, as the URLconf draws them (see Terms: stream): the one
    definition, so the ASGI entry routes here exactly what Django would route to the
    stream's view."""
    placeholder = "-token-"
    before, after = reverse(STREAM_URL_NAME, args=[placeholder]).split(placeholder)
    return re.compile(re.escape(before) + r"(?P<token>[^/]+)" + re.escape(after))


def stream_request(scope: Scope) -> WSGIRequest:
    """The stream's request as Django reads a page's (its host, its cookies), with no body."""
    return WSGIRequest(wsgi_environ(scope, io.BytesIO()))


async def _answer(send: Send, status: int, text: str) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"text/plain; charset=utf-8")],
        }
    )
    await send({"type": "http.response.body", "body": text.encode()})


async def _until_disconnect(receive: Receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass


async def stream(scope: Scope, receive: Receive, send: Send, token: str) -> None:
    """Serve one stream until the screen goes away (see Terms: stream)."""
    if scope.get("method") != "GET":
        await _answer(send, 405, "GET only")
        return
    request = stream_request(scope)
    try:
        request.get_host()  # ALLOWED_HOSTS, checked as for every page
    except DisallowedHost:
        await _answer(send, 400, "Bad Request")
        return
    language = request.COOKIES.get(PHONE_LANGUAGE_COOKIE, "")
    follower = await _in_db_thread(_follow, token, language, pool=_ARRIVALS)
    if follower is None:
        await _answer(send, 404, "Not Found")
        return
    await send(
        {
            "type": "http.response.start",
            "status": 200,
            "headers": [
                (b"content-type", b"text/event-stream; charset=utf-8"),
                (b"cache-control", b"no-store"),
                (b"x-accel-buffering", b"no"),  # a proxy in front passes each event on
            ],
        }
    )
    await _send_key(send, follower, retry=True)
    watcher = _watcher()
    watcher.add(follower)
    gone = asyncio.ensure_future(_until_disconnect(receive))
    try:
        await _serve(send, follower, gone)
    except OSError:
        pass  # the screen went away mid-write
    finally:
        watcher.remove(follower)
        gone.cancel()


async def _serve(send: Send, follower: Follower, gone: asyncio.Future) -> None:
    while not gone.done():
        woken = asyncio.ensure_future(follower.woken.wait())
        done, _pending = await asyncio.wait(
            {woken, gone}, timeout=STREAM_BEAT_SECONDS, return_when=asyncio.FIRST_COMPLETED
        )
        woken.cancel()
        if gone in done:
            return
        if woken in done:
            follower.woken.clear()
            if follower.key[0] != follower.told[0]:
                # The event changed: the player may sit elsewhere now (a round closed).
                moved = await _in_db_thread(
                    _follow, follower.token, follower.language, pool=_ARRIVALS
                )
                if moved is None:
                    return  # removed from the roster, or the link rotated
                follower.table_id, follower.key = moved.table_id, moved.key
                follower.state, follower.pad_told = None, -1
            if follower.state is not None and follower.state.version >= follower.key[1]:
                await _send_state(send, follower)
            else:
                await _send_key(send, follower)
        else:
            # See Terms: beat. The watcher notes the player as there (Terms: heartbeat).
            await send({"type": "http.response.body", "body": BEAT, "more_body": True})


async def _send_state(send: Send, follower: Follower) -> None:
    assert follower.state is not None
    state = follower.state
    html = state.message(told=follower.pad_told)
    follower.told, follower.state, follower.pad_told = follower.key, None, state.pad_version
    lines = ["event: table", f"id: {follower.key[0]}.{state.version}"]
    lines += [f"data: {line}" for line in html.strip().splitlines()]
    body = (stages.push_line(*follower.marks) + "\n".join(lines) + "\n\n").encode()
    await send({"type": "http.response.body", "body": body, "more_body": True})


async def _send_key(send: Send, follower: Follower, *, retry: bool = False) -> None:
    lines = [f"retry: {RETRY_MILLISECONDS}"] if retry else []
    follower.told = follower.key
    lines.append(f"data: {follower.key[0]}.{follower.key[1]}")
    body = ("\n".join(lines) + "\n\n").encode()
    await send({"type": "http.response.body", "body": body, "more_body": True})
