"""The clients of bench/hosted_load.py: screens that play cards (bench/screen_room.py's
players), and phones and projectors at room events (as bench/live_room.py's), each kept to
one of two app servers, moving to the survivor when theirs is killed.

Terms:
    kind        what a client sends with a client key: a card played ("play"), a pointing
                ("point"), a game's winner ("report").
    sent        a key posted at least once.
    acknowledged
                the server answered that it is stored: a play or pointing with
                X-Action-Stored, a report with X-Report-Stored naming its key.
    re-send     a POST that got no answer because its server was killed is sent again,
                same body and same key, to the server the balancer gives now (bench/
                _hosted.py, Terms: balancer), after RESEND_SECONDS, as the phones' and
                screens' outboxes send again what waits (static/js/phone.js, screen.js).
                The server stores a key once, so a re-send of what the dead server had
                already stored is answered "stored" and stores nothing.
    move        a client of the killed server goes on against the survivor: a screen
                reopens its live channel there after RECONNECT_SECONDS (the stream's own
                retry, tournament.serving.live_channel) and fetches its live part, as a page
                whose stream came back does; a phone or projector polls there.
    failover    for a screen of the killed server, from the kill until its stream is open
                again on the survivor.
    error       a failed exchange with a live server, an answer neither expected nor a
                refusal for a reason, a stream that broke on a live server. What the kill
                cut off is counted apart (bench/_hosted.py, Terms: cut off).
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import defaultdict
from dataclasses import dataclass, field

from _client import FAILURES, Connection, Response, Stream
from _hosted import Pool
from live_room import FORM_FIELD, HTMX
from screen_room import (
    DEAL,
    GAME,
    POINT_DELAY,
    STORED,
    Player,
    ScreenRoom,
)

RESEND_SECONDS = 0.5  # about when an outbox tries again: at the next poll
RESEND_GRACE_SECONDS = 10.0  # how long after the run a re-send may still go out
RECONNECT_SECONDS = 1.0  # the stream's retry (tournament.serving.live_channel.RETRY_MILLISECONDS)
# Between two games at a room event's table: faster than people play (a game takes
# minutes), as bench/live_room.py's 4 reports a second at 125 tables (one every 31 s).
GAME_SECONDS = (20.0, 40.0)
CONFIRM_SECONDS = (0.3, 1.5)  # from one phone's report to the other phone's, same game
REPORT_STORED = "x-report-stored"
FORM = {**HTMX, "Content-Type": "application/x-www-form-urlencoded"}


@dataclass
class Tally:
    """What every client of the run did (see Terms)."""

    sent: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    acknowledged: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    resent: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    resent_refused: int = 0  # re-sends refused for a reason (not stored, not an error)
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: int = 0
    error_kinds: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    cut_off: int = 0
    # Requests sent again on a new connection after a live server closed a kept-alive one
    # without answering, as browsers do unseen: granian closes a connection idle for 30 s
    # (its HTTP/1 header read timeout). Counted, since they could also be a server
    # dropping connections under the load.
    reopened: int = 0
    failovers: list[float] = field(default_factory=list)
    # the game numbers reported (sent) at each room event's table, by the table's token
    games: dict[str, set[int]] = field(default_factory=lambda: defaultdict(set))

    def failed(self, kind: str) -> None:
        self.errors += 1
        self.error_kinds[kind] += 1


@dataclass
class HostedScreenRoom(ScreenRoom):
    """One screen event's room (bench/screen_room.py), its errors counted in the tally,
    and the cards whose play was sent again, left out of card to table (failover)."""

    tally: Tally = field(default_factory=Tally)
    resent_cards: set[tuple[int, int, str]] = field(default_factory=set)

    def failed(self, kind: str) -> None:
        self.tally.failed(kind)


class Routed:
    """A client kept to one server until it dies (see Terms: move, re-send)."""

    pool: Pool
    port: int
    tally: Tally
    actions: Connection  # the connection POSTs go out on
    stop_at: float = float("inf")

    def move(self) -> bool:
        """To the balancer's server if this one is dead; whether it moved."""
        port = self.pool.route(self.port)
        if port == self.port:
            return False
        self.port = port
        self.reconnect()
        return True

    def reconnect(self) -> None:
        raise NotImplementedError

    def cut_off(self, what: str, failure: BaseException, port: int) -> bool:
        """An exchange with ``port`` failed: cut off by the kill (the client moves, if
        another of its exchanges has not moved it already) or an error. Judged by the
        port the exchange went to, not the client's: another exchange of the same client
        may have moved it meanwhile."""
        if self.pool.alive(port):
            # The bench's own ConnectionErrors say what went wrong (a stream answered 503,
            # or ended); the system's name their kind.
            said = f" ({str(failure)[:40]})" if type(failure) is ConnectionError else ""
            self.tally.failed(f"{what}: {type(failure).__name__}{said}")
            return False
        self.tally.cut_off += 1
        self.move()
        return True

    async def get(
        self, what: str, connection: str, path: str, headers: dict[str, str]
    ) -> Response | None:
        """GET ``path`` on this client's connection named ``connection``; None when it
        failed (cut off, the client moved; or an error). A keep-alive connection the
        server closed while idle is tried once more on a new one, as browsers do."""
        for again in (True, False):
            port = self.port
            try:
                return await getattr(self, connection).request("GET", path, headers)
            except FAILURES as failure:
                if again and self.pool.alive(port) and isinstance(failure, ConnectionError):
                    self.tally.reopened += 1
                    continue
                self.cut_off(what, failure, port)
                return None
        return None

    async def deliver(
        self, kind: str, key: str, path: str, headers: dict[str, str], body: str
    ) -> tuple[Response | None, float]:
        """POST until a server answers (see Terms: re-send): the answer (None: an error)
        and when the answered POST went out."""
        self.tally.sent[kind].add(key)
        again = True
        while True:
            began, port = time.perf_counter(), self.port
            try:
                answer = await self.actions.request("POST", path, headers, body.encode())
            except FAILURES as failure:
                if self.pool.alive(port):
                    if again and isinstance(failure, ConnectionError):
                        # A live server closed this keep-alive connection: sent again on a
                        # new one, as a browser does (the key keeps it once).
                        again = False
                        self.tally.reopened += 1
                        continue
                    self.tally.failed(f"{kind}: {type(failure).__name__}")
                    return None, began
                self.tally.cut_off += 1
                self.tally.resent[kind].add(key)
                self.move()
                if time.perf_counter() > self.stop_at + RESEND_GRACE_SECONDS:
                    self.tally.failed(f"{kind}: no server answered")
                    return None, began
                await asyncio.sleep(RESEND_SECONDS)
                continue
            self.tally.latencies[kind].append(time.perf_counter() - began)
            if key in self.tally.resent[kind] and answer.status == 409:
                self.tally.resent_refused += 1
            return answer, began


class MovingPlayer(Routed, Player):
    """A screen of bench/screen_room.py that moves to the survivor (see Terms: move)."""

    def __init__(self, room: HostedScreenRoom, pool: Pool, index: int, table: int, token: str,
                 phone: str, rng: random.Random) -> None:  # fmt: skip
        Player.__init__(self, room, pool.port_for(index), table, token, phone, rng)
        self.room: HostedScreenRoom = room
        self.pool, self.tally = pool, room.tally
        # (since when, which server's port) this screen's live channel was open on
        self.moves: list[tuple[float, int]] = [(0.0, self.port)]

    def reconnect(self) -> None:
        self.connection = Connection("127.0.0.1", self.port)
        self.actions = Connection("127.0.0.1", self.port)

    async def fetch(self) -> None:
        """bench/screen_room.py's fetch of the live part; a keep-alive connection a live
        server closed while idle is tried once more on a new one, as browsers do."""
        port = self.port
        try:
            await Player.fetch(self)
        except ConnectionError:
            if not self.pool.alive(port):
                raise
            self.tally.reopened += 1
            await Player.fetch(self)

    def port_at(self, moment: float) -> int:
        """The server whose channel this screen was on at ``moment``."""
        return next(port for since, port in reversed(self.moves) if since <= moment)

    async def run(self, stop_at: float) -> None:
        self.stop_at = stop_at
        while time.perf_counter() < stop_at:
            stream = Stream(self.port, f"/t/p/{self.token}/stream/", self.cookie)
            try:
                await stream.open()
                if self.moves[-1][1] != self.port:  # back, on the survivor
                    await self.fetch()
                    self.arrived()
                await self.follow(stream, stop_at)
            except FAILURES as failure:
                self.cut_off("stream", failure, stream.port)
                await asyncio.sleep(min(RECONNECT_SECONDS, max(0.0, stop_at - time.perf_counter())))
                self.move()
            finally:
                await stream.close()
        await self.connection.close()

    def arrived(self) -> None:
        now = time.perf_counter()
        self.moves.append((now, self.port))
        killed = [server.killed_at for server in self.pool.servers if server.killed_at]
        if killed:
            self.tally.failovers.append(now - max(killed))

    def shown(self) -> tuple[int, str, str]:
        """The game number, trick and deal this screen shows, as screen.js sends them."""
        game, deal = GAME.search(self.html), DEAL.search(self.html)
        number = int(game.group(1)) if game else 0
        trick = game.group(3).decode() if game else ""
        return number, trick, deal.group(1).decode() if deal else ""

    async def play(self, card: str, delay: float, stop_at: float) -> None:
        await asyncio.sleep(delay)
        try:
            if time.perf_counter() >= stop_at:
                return
            number, trick, deal = self.shown()
            key = f"bench-{self.token[:12]}-{time.perf_counter_ns()}"
            self.room.sent[(self.table, number, card)] = (time.perf_counter(), self.token)
            body = f"card={card}&key={key}&trick={trick}&deal={deal}"
            answer = await self.act_on("play", key, body)
            if key in self.tally.resent["play"]:
                self.room.resent_cards.add((self.table, number, card))
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
            _number, trick, deal = self.shown()
            key = f"point-{self.token[:12]}-{time.perf_counter_ns()}"
            body = f"card={card}&key={key}&trick={trick}&deal={deal}"
            answer = await self.act_on("point", key, body)
            if answer is not None and STORED in answer.headers:
                self.pointed = (self.deal, trick.encode(), card)
        finally:
            self.busy = False
        self.act(stop_at)

    async def act_on(self, kind: str, key: str, body: str) -> Response | None:
        headers = {**FORM, "Cookie": self.cookie, "X-Screen-Pushed": "1"}
        path = f"/t/p/{self.token}/{kind}/"
        answer, _began = await self.deliver(kind, key, path, headers, body)
        if answer is None:
            return None
        if answer.status in (200, 204) and STORED in answer.headers:
            self.tally.acknowledged[kind].add(key)
            if answer.body:
                self.look(answer.body)
        elif answer.status != 409:
            # A pointing that arrives as the trick is taken, or a play as time runs out, is
            # refused for a reason the next fetch shows; anything else is an error.
            self.tally.failed(f"{kind} answered {answer.status}")
        return answer


class Poller(Routed):
    """A screen that polls ``path`` with its ETag every interval on a keep-alive
    connection (bench/live_room.py's phones and projectors), moving when its server dies."""

    def __init__(self, tally: Tally, pool: Pool, index: int, path: str, cookie: str = "") -> None:
        self.tally, self.pool, self.path = tally, pool, path
        self.port = pool.port_for(index)
        self.headers = {**HTMX, **({"Cookie": cookie} if cookie else {})}
        self.etag = ""
        self.reconnect()

    def reconnect(self) -> None:
        self.connection = Connection("127.0.0.1", self.port)
        self.actions = Connection("127.0.0.1", self.port)

    async def poll(self) -> None:
        headers = {**self.headers, **({"If-None-Match": self.etag} if self.etag else {})}
        began = time.perf_counter()
        answer = await self.get("poll", "connection", self.path, headers)
        if answer is None:
            return
        self.tally.latencies["poll"].append(time.perf_counter() - began)
        if answer.status == 200:
            self.etag = answer.headers.get("etag", "")
        elif answer.status != 304:
            self.tally.failed(f"poll answered {answer.status}")

    async def keep_polling(
        self, start: float, stop_at: float, interval: float, offset: float
    ) -> None:
        self.stop_at = stop_at
        due = start + offset
        try:
            while due < stop_at:
                await asyncio.sleep(max(0.0, due - time.perf_counter()))
                await self.poll()
                # The next poll an interval after this one was due, or now if it is late.
                due = max(due + interval, time.perf_counter())
        finally:
            await self.connection.close()


class Phone(Poller):
    """A table's phone at a room event: it polls its table's live part, and reports the
    table's games with the table's other phone (``table_games``)."""

    def __init__(self, tally: Tally, pool: Pool, index: int, token: str, phone_id: str) -> None:
        super().__init__(tally, pool, index, f"/t/{token}/live/", f"ft_phone={phone_id}")
        self.token = token

    async def form(self) -> dict[str, str] | None:
        """The report form's fields from the table's page; a page that met a dead server
        is asked of the survivor (a reload)."""
        for _ in range(3):
            port = self.port
            page = await self.get("page", "actions", f"/t/{self.token}/", self.headers)
            if page is None:
                if self.port != port:
                    continue  # cut off: the page again, on the survivor
                return None
            if page.status != 200:
                self.tally.failed(f"page answered {page.status}")
                return None
            return dict(FORM_FIELD.findall(page.body.decode()))
        return None

    async def report(self, fields: dict[str, str], game: int, winner: int) -> bool:
        """Post the winner of ``game`` with the page's key, until a server answers."""
        key = fields.get("client_key", "")
        body = (
            f"client_key={key}&game_number={game}"
            f"&round_number={fields.get('round_number', '')}&winner={winner}"
            # As static/js/phone.js sends every report: it asked "Another game for ...?"
            # itself when it had to, and the bench's players always mean a new game.
            "&retap_checked=on"
        )
        headers = {**FORM, **self.headers}
        self.tally.games[self.token].add(game)
        path = f"/t/{self.token}/report/"
        answer, _began = await self.deliver("report", key, path, headers, body)
        if answer is None:
            return False
        if answer.status == 200 and answer.headers.get(REPORT_STORED) == key:
            self.tally.acknowledged["report"].add(key)
            return True
        refused = " (refused)" if "x-report-refused" in answer.headers else ""
        self.tally.failed(f"report answered {answer.status}{refused}")
        return False


async def table_games(phones: list[Phone], seated: list[int], stop_at: float,
                      rng: random.Random) -> None:  # fmt: skip
    """A room event's table: a game every GAME_SECONDS (the first within one pace, so
    the tables' games spread), reported by one phone (the page's next game, a seated
    winner), then confirmed by the other; they take turns reporting first."""
    for phone in phones:
        phone.stop_at = stop_at
    played = 0
    pause = rng.uniform(0.0, GAME_SECONDS[1])
    while True:
        await asyncio.sleep(max(0.0, min(pause, stop_at - time.perf_counter())))
        if time.perf_counter() >= stop_at:
            return
        first, second = phones[played % len(phones)], phones[(played + 1) % len(phones)]
        if await report_game(first, second, rng.choice(seated), rng):
            played += 1
        pause = rng.uniform(*GAME_SECONDS)


async def report_game(first: Phone, second: Phone, winner: int, rng: random.Random) -> bool:
    """One game: ``first`` reports it from its page's form, ``second`` confirms it."""
    fields = await first.form()
    if not fields or not fields.get("game_number"):
        return False
    game = int(fields["game_number"])
    if not await first.report(fields, game, winner):
        return False
    await asyncio.sleep(rng.uniform(*CONFIRM_SECONDS))
    if second is not first and (more := await second.form()):
        await second.report(more, game, winner)
    return True
