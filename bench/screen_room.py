"""A screen room on loopback: players at tables of 5, each with a screen of their own (a
keep-alive connection and the live channel's stream), playing Five Tricks at a human pace
against the real server (`manage.py serve`: granian, ASGI, SQLite).

Terms:
    player        a virtual player: holds its stream (tournament.serving.live_channel), takes the
                  table's state it pushes, and fetches its live part (with its ETag) at any
                  other message or a new deal, as static/js/screen.js does; it also polls
                  every PUSHED_POLL_SECONDS, as poll.js does while the stream is open.
                  When the table's state says it is their turn, they wait a human moment
                  and play the first card of their hand; when every card of a trick is
                  down, they point at the first card played. One trick in ten, a player
                  first points at another card and changes their mind a moment later: a
                  disagreement, settled by the players.
    pace          a card every MIN_PACE..MAX_PACE seconds at each table: the player whose
                  turn it is waits that long (uniformly) before playing.
    card to table from a play's POST sent until each other player of the table holds a
                  state showing that card (``data-card``), pushed or fetched: what a table
                  waits to see a card played.
    play          a play's POST, answered.
    errors        failed exchanges, answers that are neither 200 nor 304, an action
                  refused although the page offered it, a stream that broke.
    stored once   after the run, every acknowledged play (X-Action-Stored) is stored,
                  once, and nothing else is: ``remote_plays_stored`` equals
                  ``remote_plays_acknowledged`` and every stored key was acknowledged.

Traffic goes to 127.0.0.1 only; every loop stops by time. Usage (its own server; --hog
keeps one core busy with another process for the whole run, as on a shared host):
    .venv/bin/python bench/screen_room.py --players 250 --seconds 45 [--hog]
compare.py (`make bench`) runs it on its server after the room of phones.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import time
from collections import defaultdict
from dataclasses import dataclass, field

from _client import FAILURES, Connection, Stream, percentile
from _setup import free_port, hogging, make_owner, running_server, setup_django
from _stages import StageLog, print_stages

HTMX = {"HX-Request": "true"}
MIN_PACE, MAX_PACE = 1.0, 3.0
POINT_DELAY = (0.3, 1.2)
PUSHED_POLL_SECONDS = 10.0
OPENING = 16  # screens opened at once before the run
GAME = re.compile(rb'data-game="(\d+)" data-practice="(\d)" data-trick="(\d*)"')
TRICK_CARDS = re.compile(rb'data-card="(\w\w)"')
HAND = re.compile(rb'id="card-(\w\w)"')
TO_PLAY = re.compile(rb'data-to-play="(\d*)"')
ME = re.compile(rb'data-me="(\d+)"')
DEAL = re.compile(rb'id="table-state"[^>]*data-deal="(\d+)"')
VERSION = re.compile(rb'id="table-state"[^>]*data-version="(\d+)"')
POINTERS = re.compile(rb'id="point-(\w\w)"[^>]*data-pointers="([\d ]*)"')
CAN_POINT = b'id="point-'
STORED = "x-action-stored"


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=250)
    parser.add_argument("--seconds", type=float, default=45)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--threads", type=int, help="the server's threads per worker")
    parser.add_argument(
        "--hog", action="store_true", help="keep one core busy with another process meanwhile"
    )
    return parser.parse_args()


def prepare_screen_event(players: int):
    """A screen event of ``players`` at tables of 5, round 1 open: its players' tokens by
    table number and each player's signed phone id."""
    from tournament.common.phone_ids import signed_phone_id
    from tournament.models import Event, Player
    from tournament.writes.rounds import advance_phase
    from tournament.writes.seating import seat_players

    owner = make_owner()
    event = Event.objects.create(
        owner=owner, name="Screen room", seed=5, rounds_planned=3, cards="screens"
    )
    Player.objects.bulk_create(Player(event=event, name=f"Player {i:03d}") for i in range(players))
    seat_players(event=event, table_count=max(1, players // 5))
    for _ in range(3):
        event = advance_phase(event=event)
    tables: dict[int, list[tuple[str, str]]] = defaultdict(list)
    for seat in event.current_round.seats.select_related("player", "table"):
        phone = signed_phone_id(f"bench{seat.player.pk:0>12}")
        tables[seat.table.number].append((seat.player.token, phone))
    return event, dict(tables)


@dataclass
class ScreenRoom:
    """What one screen room measured."""

    seconds: float = 0.0
    players: int = 0
    plays: list[float] = field(default_factory=list)  # each play's POST latency
    points: list[float] = field(default_factory=list)
    fetches: list[float] = field(default_factory=list)
    # (table, game, card) -> when its play's POST was sent, and who played it
    sent: dict[tuple[int, int, str], tuple[float, str]] = field(default_factory=dict)
    # (table, game, card, player) -> when that player's screen first showed it
    seen: dict[tuple[int, int, str, str], float] = field(default_factory=dict)
    acknowledged: set[str] = field(default_factory=set)
    errors: int = 0
    error_kinds: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    disagreements: int = 0
    stored: int = 0
    stored_unacknowledged: int = 0
    stages: StageLog = field(default_factory=StageLog)  # where each card's time went

    def failed(self, kind: str) -> None:
        self.errors += 1
        self.error_kinds[kind] += 1

    def card_to_table(self) -> list[float]:
        waits = []
        for (table, game, card, viewer), at in self.seen.items():
            sent = self.sent.get((table, game, card))
            if sent is not None and sent[1] != viewer:
                waits.append(at - sent[0])
        return waits

    def summary(self) -> dict[str, float]:
        waits = self.card_to_table()
        return {
            "remote_players": self.players,
            "remote_seconds": round(self.seconds, 1),
            "remote_plays_acknowledged": len(self.acknowledged),
            "remote_plays_stored": self.stored,
            "remote_stored_unacknowledged": self.stored_unacknowledged,
            "remote_disagreements": self.disagreements,
            "remote_card_to_table_p50_s": round(percentile(waits, 0.50), 3),
            "remote_card_to_table_p99_s": round(percentile(waits, 0.99), 3),
            "remote_card_to_table_max_s": round(max(waits, default=0.0), 3),
            "remote_play_p50_ms": round(percentile(self.plays, 0.50) * 1000, 1),
            "remote_play_p99_ms": round(percentile(self.plays, 0.99) * 1000, 1),
            "remote_fetch_p99_ms": round(percentile(self.fetches, 0.99) * 1000, 1),
            "remote_errors": self.errors,
            **self.stages.summary(),
        }


class Player:
    """One virtual player (see Terms)."""

    def __init__(self, room: ScreenRoom, port: int, table: int, token: str, phone: str,
                 rng: random.Random) -> None:  # fmt: skip
        self.room, self.port, self.table, self.token, self.rng = room, port, table, token, rng
        self.cookie = f"ft_phone={phone}"
        self.connection = Connection("127.0.0.1", port)
        self.actions = Connection("127.0.0.1", port)
        self.etag = ""
        self.html = b""  # the table's state, as last fetched or pushed
        self.hand: list[str] = []
        self.deal = b""
        self.me = b""
        self.busy = False
        self.tasks: set[asyncio.Future] = set()  # the actions under way, kept alive
        # What this player last did, as (deal, trick[, card]): a screen that has played
        # or pointed waits for the table's state to move on, as a person would.
        self.played: tuple[bytes, bytes] = (b"", b"")
        self.pointed: tuple[bytes, bytes, str] = (b"", b"", "")

    async def open(self) -> None:
        page = await self.connection.request("GET", f"/t/p/{self.token}/", {"Cookie": self.cookie})
        if page.status != 200:
            raise ConnectionError(f"page answered {page.status}")
        await self.fetch()

    async def fetch(self) -> None:
        headers = {**HTMX, "Cookie": self.cookie}
        if self.etag:
            headers["If-None-Match"] = self.etag
        began = time.perf_counter()
        answer = await self.connection.request("GET", f"/t/p/{self.token}/live/", headers)
        self.room.fetches.append(time.perf_counter() - began)
        if answer.status == 200:
            self.etag = answer.headers.get("etag", "")
            self.look(answer.body)
        elif answer.status != 304:
            self.room.failed(f"fetch answered {answer.status}")

    def look(self, html: bytes, *, pushed: bool = False, marks: bytes = b"") -> None:
        """Keep the table's state (and from a live part, the hand), and note when each
        card in play first showed here."""
        if pushed:
            deal, version = DEAL.search(html), VERSION.search(html)
            shown = VERSION.search(self.html)
            if deal is None or deal.group(1) != self.deal:
                return  # a new deal: the screen fetches its live part (its new hand)
            if version and shown and int(version.group(1)) <= int(shown.group(1)):
                return  # older than what is shown
        else:
            self.hand = [card.decode() for card in HAND.findall(html)]
            if (me := ME.search(html)) is not None:
                self.me = me.group(1)
            deal = DEAL.search(html)
            self.deal = deal.group(1) if deal else b""
        self.html = html
        now = time.perf_counter()
        game = GAME.search(html)
        if game is None or game.group(2) == b"1":
            return
        number = int(game.group(1))
        for card in TRICK_CARDS.findall(html):
            key = (self.table, number, card.decode(), self.token)
            if key not in self.room.seen and marks:
                self.room.stages.pushed(key[:3], marks)
            self.room.seen.setdefault(key, now)

    async def run(self, stop_at: float) -> None:
        stream = Stream(self.port, f"/t/p/{self.token}/stream/", self.cookie)
        try:
            await stream.open()
            await self.follow(stream, stop_at)
        except FAILURES as failure:
            self.room.failed(f"stream: {type(failure).__name__}")
        finally:
            await stream.close()
            await self.connection.close()

    async def follow(self, stream: Stream, stop_at: float) -> None:
        """As screen.js does: take what the stream pushes, fetch the live part on anything
        else (and every PUSHED_POLL_SECONDS), then act on the table's state."""
        while time.perf_counter() < stop_at:
            timeout = min(PUSHED_POLL_SECONDS, stop_at - time.perf_counter())
            try:
                kind, data = await asyncio.wait_for(stream.message(), max(0.01, timeout))
            except TimeoutError:
                kind, data = b"poll", b""
            if time.perf_counter() >= stop_at:
                break
            if kind == b"table":
                self.look(data, pushed=True, marks=stream.marks)
                deal = DEAL.search(data)
                if deal is not None and deal.group(1) != self.deal:
                    await self.fetch()
            else:
                await self.fetch()
            self.act(stop_at)

    def act(self, stop_at: float) -> None:
        if self.busy or time.perf_counter() >= stop_at:
            return
        turn = TO_PLAY.search(self.html)
        game = GAME.search(self.html)
        trick = game.group(3) if game else b""
        if (
            turn is not None
            and turn.group(1) == self.me
            and self.hand
            and self.played != (self.deal, trick)
        ):
            self.played = (self.deal, trick)
            self.busy = True
            delay = self.rng.uniform(MIN_PACE, MAX_PACE)
            self.tasks.add(asyncio.ensure_future(self.play(self.hand[0], delay, stop_at)))
        elif CAN_POINT in self.html and (cards := TRICK_CARDS.findall(self.html)):
            pointed = next(
                (m for m in POINTERS.finditer(self.html) if self.me in m.group(2).split()), None
            )
            target = cards[0].decode()
            if pointed is not None and pointed.group(1).decode() == target:
                return
            if self.pointed == (self.deal, trick, target):
                return  # pointed there already; the table's state has not caught up
            first = target
            if pointed is None and len(cards) > 1 and self.rng.random() < 0.1:
                first = cards[-1].decode()  # points elsewhere first: a disagreement
                self.room.disagreements += 1
            self.busy = True
            self.tasks.add(asyncio.ensure_future(self.point(first, stop_at)))

    async def play(self, card: str, delay: float, stop_at: float) -> None:
        await asyncio.sleep(delay)
        try:
            if time.perf_counter() >= stop_at:
                return
            game = GAME.search(self.html)
            number = int(game.group(1)) if game else 0
            key = f"bench-{self.token[:12]}-{time.perf_counter_ns()}"
            began = time.perf_counter()
            self.room.sent[(self.table, number, card)] = (began, self.token)
            answer = await self.post("play", f"card={card}&key={key}")
            self.room.plays.append(took := time.perf_counter() - began)
            if answer is not None:  # where its time went (bench/_stages.py)
                self.room.stages.answered((self.table, number, card), answer.headers, took)
            if answer is not None and STORED in answer.headers:
                self.room.acknowledged.add(key)
                if card in self.hand:  # as screen.js takes it from the hand at once
                    self.hand.remove(card)
        finally:
            self.busy = False
        self.act(stop_at)

    async def point(self, card: str, stop_at: float) -> None:
        await asyncio.sleep(self.rng.uniform(*POINT_DELAY))
        try:
            if time.perf_counter() >= stop_at:
                return
            game = GAME.search(self.html)
            trick = game.group(3).decode() if game else ""
            key = f"point-{self.token[:12]}-{time.perf_counter_ns()}"
            began = time.perf_counter()
            answer = await self.post("point", f"card={card}&key={key}&trick={trick}")
            self.room.points.append(time.perf_counter() - began)
            if answer is not None and STORED in answer.headers:
                self.pointed = (self.deal, trick.encode(), card)
        finally:
            self.busy = False
        self.act(stop_at)

    async def post(self, action: str, body: str, *, again: bool = True):
        headers = {
            **HTMX,
            "Cookie": self.cookie,
            "Content-Type": "application/x-www-form-urlencoded",
            "X-Screen-Pushed": "1",  # as screen.js sends it while its stream is open
        }
        try:
            answer = await self.actions.request(
                "POST", f"/t/p/{self.token}/{action}/", headers, body.encode()
            )
        except ConnectionError:
            # The server closed the keep-alive connection this request went out on: sent
            # again on a new one, with the same key, as a browser would (stored once).
            if again:
                return await self.post(action, body, again=False)
            self.room.failed(f"{action}: ConnectionError")
            return None
        except FAILURES as failure:
            self.room.failed(f"{action}: {type(failure).__name__}")
            return None
        if answer.status in (200, 204) and STORED in answer.headers:
            if answer.body:
                self.look(answer.body)
            return answer
        # A pointing that arrives as the trick is taken, or a play as time runs out, is
        # refused for a reason the next fetch shows; anything else is an error.
        if answer.status != 409:
            self.room.failed(f"{action} answered {answer.status}")
        return answer


async def run_screen_room(port: int, tables: dict, *, seconds: float, seed: int) -> ScreenRoom:
    room = ScreenRoom(players=sum(len(seats) for seats in tables.values()))
    rng = random.Random(seed)
    players = [
        Player(room, port, number, token, phone, random.Random(rng.random()))
        for number, seats in sorted(tables.items())
        for token, phone in seats
    ]
    gate = asyncio.Semaphore(OPENING)

    async def opened(player: Player) -> None:
        async with gate:
            await player.open()

    await asyncio.gather(*(opened(player) for player in players))
    start = time.perf_counter()
    await asyncio.gather(*(player.run(start + seconds) for player in players))
    room.seconds = time.perf_counter() - start
    # The actions still on their way are answered before their connections close: one
    # cut off would be stored and never acknowledged, which is the fault counted below
    # (count_stored), not the bench's own.
    await asyncio.gather(*(task for player in players for task in player.tasks))
    for player in players:
        await player.actions.close()
    return room


def count_stored(event, room: ScreenRoom) -> None:
    from tables.models import Play

    keys = set(
        Play.objects.filter(deal__round__event=event, by_organizer=False).values_list(
            "client_key", flat=True
        )
    )
    room.stored = len(keys)
    room.stored_unacknowledged = len(keys - room.acknowledged)
    for _missing in room.acknowledged - keys:
        room.failed("acknowledged, not stored")
    for _extra in keys - room.acknowledged:
        room.failed("stored, not acknowledged")


def screen_figures(port: int, *, players: int, seconds: float, seed: int = 7) -> ScreenRoom:
    """The screen room on a running server (compare.py's): a new event, then the run."""
    event, tables = prepare_screen_event(players)
    room = asyncio.run(run_screen_room(port, tables, seconds=seconds, seed=seed))
    count_stored(event, room)
    return room


def print_screen_room(room: ScreenRoom) -> None:
    figures = room.summary()
    print(
        f"screen room: {room.players} players at tables of 5 on screens, a card every "
        f"{MIN_PACE:.0f}-{MAX_PACE:.0f} s per table, {room.seconds:.0f} s"
    )
    print(
        f"  card to table  p50 {figures['remote_card_to_table_p50_s'] * 1000:6.1f} ms"
        f"  p99 {figures['remote_card_to_table_p99_s'] * 1000:6.1f} ms"
        f"  max {figures['remote_card_to_table_max_s'] * 1000:6.1f} ms"
    )
    print(
        f"  play POST      p50 {figures['remote_play_p50_ms']:6.1f} ms"
        f"  p99 {figures['remote_play_p99_ms']:6.1f} ms"
        f"  ({figures['remote_plays_acknowledged']} plays acknowledged,"
        f" {figures['remote_plays_stored']} stored, {figures['remote_disagreements']}"
        f" disagreements)"
    )
    kinds = ", ".join(f"{kind}: {count}" for kind, count in sorted(room.error_kinds.items()))
    print(f"  errors {figures['remote_errors']}" + (f" ({kinds})" if kinds else ""))
    print_stages(figures)


def main() -> None:
    import json

    args = parse_args()
    data_dir = setup_django()
    port = free_port()
    options = ["--threads", str(args.threads)] if args.threads else []
    with running_server(data_dir, port, *options), hogging(1 if args.hog else 0):
        room = screen_figures(port, players=args.players, seconds=args.seconds, seed=args.seed)
    print_screen_room(room)
    print(json.dumps({**room.summary(), "remote_hog": args.hog}))


if __name__ == "__main__":
    main()
