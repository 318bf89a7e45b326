"""Two app servers on one PostgreSQL for bench/hosted_load.py, and the balancer between them.

Terms:
    app server  `manage.py serve` as `make run` starts it (granian, ASGI, its default workers
                and threads), on 127.0.0.1 with the bare view (FIVETRICKS_BENCH=1), in a
                process group of its own so that one SIGKILL reaches granian and every
                worker. Both servers read DATABASE_URL and DJANGO_SECRET_KEY from this
                process's environment, as docs/DEPLOY.md asks of several servers; each has
                a data folder of its own, since `serve` holds its folder's lock (one server
                per data folder), and nothing else is written there on PostgreSQL.
    kill        SIGKILL to a server's whole process group: nothing flushed, no request
                finished, its database connections dropped by the kernel.
    balancer    what the proxy in front of several servers does (docs/DEPLOY.md, The
                proxy): each client keeps to the server it was given; once that server is
                dead, its next request goes to a live one (``route``). A request that was
                on its way to the dead one when it died got no answer: the client sends it
                again, with the same client key, as a phone's outbox does.
    cut off     an exchange that failed because its server was killed: expected, counted,
                never an error. A failure on a live server is an error.
    bare view   /bench/hello/ (bench/hello.py): the whole middleware stack, no query, no
                template; its throughput on both servers before the load, and its latency
                on the surviving server during the load (the probe), is the ceiling the
                other figures sit under.

Loopback only; every loop stops by time.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from _client import FAILURES, Connection, Run, closed_loop, percentile
from _setup import REPO, SERVER_START_SECONDS, _answers, free_port

BARE_PATH = "/bench/hello/"
BARE_CONNECTIONS = 16  # per server, as compare.py measures the bare view
PROBE_SECONDS = 0.25  # a bare request to the surviving server this often during the load


@dataclass
class AppServer:
    """One app server (see Terms)."""

    number: int
    port: int
    data_dir: Path
    process: subprocess.Popen | None = None
    killed_at: float | None = None  # time.perf_counter() of the kill

    @property
    def alive(self) -> bool:
        return self.killed_at is None


@dataclass
class Pool:
    """The app servers and the balancer's choice among them (see Terms: balancer)."""

    servers: list[AppServer] = field(default_factory=list)

    def port_for(self, index: int) -> int:
        """The server a new client is given: round the servers, so clients (and the
        players of every table) are spread over both."""
        return self.servers[index % len(self.servers)].port

    def alive(self, port: int) -> bool:
        return any(server.port == port and server.alive for server in self.servers)

    def route(self, port: int) -> int:
        """Where a client of ``port`` sends its next request: the same server while it
        lives, else the first live one."""
        if self.alive(port):
            return port
        return next(server.port for server in self.servers if server.alive)

    @property
    def survivor(self) -> AppServer:
        """The server that is never killed: the first."""
        return self.servers[0]

    @property
    def victim(self) -> AppServer:
        """The server killed at half time: the last."""
        return self.servers[-1]


def start_server(server: AppServer, extra: list[str], log) -> None:
    """Start ``server`` and return once its bare view answers."""
    env = {**os.environ, "FIVETRICKS_DATA_DIR": str(server.data_dir), "FIVETRICKS_BENCH": "1"}
    server.process = subprocess.Popen(
        [sys.executable, "manage.py", "serve", "--host", "127.0.0.1", "--port", str(server.port),
         "--no-rehearsal", *extra],
        cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT,
        start_new_session=True,  # its own process group: one kill reaches every worker
    )  # fmt: skip
    deadline = time.monotonic() + SERVER_START_SECONDS
    while not _answers(server.port):
        if server.process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"app server {server.number} did not start; see {log.name}")
        time.sleep(0.2)


def kill(server: AppServer) -> None:
    """SIGKILL to the server's process group (see Terms: kill); the killed flag is set
    first, so a request that fails from now on counts as cut off."""
    if server.process is None or server.process.poll() is not None:
        return
    server.killed_at = server.killed_at or time.perf_counter()
    with contextlib.suppress(ProcessLookupError):  # already gone
        os.killpg(server.process.pid, signal.SIGKILL)
    server.process.wait(timeout=30)


def stop(server: AppServer) -> None:
    """Stop a server at the end of the run as Ctrl+C would, then for good."""
    if server.process is None or server.process.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(server.process.pid, signal.SIGTERM)
    try:
        server.process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        kill(server)


@contextlib.contextmanager
def app_servers(base_dir: Path, count: int, extra: list[str]) -> Iterator[Pool]:
    """``count`` app servers on the database DATABASE_URL names, started one after the
    other (each one's start migrates and collects the static files: two at once would
    race), all stopped on the way out, however it goes."""
    pool = Pool()
    logs = []
    try:
        for number in range(1, count + 1):
            server = AppServer(number, free_port(), base_dir / f"server-{number}")
            server.data_dir.mkdir()
            log = open(base_dir / f"server-{number}.log", "w")  # noqa: SIM115 - closed below
            logs.append(log)
            pool.servers.append(server)
            print(f"app server {number}: port {server.port}, log {log.name}", flush=True)
            start_server(server, extra, log)
        yield pool
    finally:
        for server in pool.servers:
            stop(server)
        for log in logs:
            log.close()


def machine_busy(seconds: float = 1.0) -> float | None:
    """The share of the machine's CPU time that was busy over ``seconds`` (Linux's
    /proc/stat), taken before the bench starts anything: other work the figures will
    share the cores with (a shared machine may run what this one's processes cannot
    see). None where there is no /proc/stat."""

    def sample() -> tuple[int, int]:
        with open("/proc/stat") as stat:
            # user nice system idle iowait irq softirq steal
            ticks = [int(value) for value in stat.readline().split()[1:9]]
        return sum(ticks), ticks[3] + ticks[4]

    try:
        total, idle = sample()
        time.sleep(seconds)
        total_after, idle_after = sample()
    except (OSError, ValueError):
        return None
    return 1 - (idle_after - idle) / max(1, total_after - total)


def bare_throughput(pool: Pool, seconds: float) -> tuple[float, float]:
    """Requests a second of the bare view from all servers at once (closed loops of
    BARE_CONNECTIONS each), and its p99 in ms: the ceiling, before any load."""

    async def exchange(connection: Connection) -> bool:
        return (await connection.request("GET", BARE_PATH)).status == 200

    async def both() -> list[Run]:
        return await asyncio.gather(
            *(
                closed_loop(server.port, exchange, connections=BARE_CONNECTIONS,
                            seconds=seconds, max_requests=200_000)
                for server in pool.servers
            )
        )  # fmt: skip

    runs = asyncio.run(both())
    latencies = [latency for run in runs for latency in run.latencies]
    rps = sum(run.requests_per_second for run in runs)
    return rps, percentile(latencies, 0.99) * 1000


async def probe_bare(port: int, stop_at: float, samples: list[float]) -> int:
    """The bare view on ``port`` every PROBE_SECONDS until ``stop_at``: its latency under
    the load, in ``samples``; the number of failed probes is returned."""
    connection = Connection("127.0.0.1", port)
    failures = 0
    try:
        while time.perf_counter() < stop_at:
            began = time.perf_counter()
            try:
                answer = await connection.request("GET", BARE_PATH)
                if answer.status == 200:
                    samples.append(time.perf_counter() - began)
                else:
                    failures += 1
            except FAILURES:
                failures += 1
            await asyncio.sleep(max(0.0, began + PROBE_SECONDS - time.perf_counter()))
    finally:
        await connection.close()
    return failures
