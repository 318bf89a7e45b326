"""`make bench`: the real server (`manage.py serve`, as `make run` starts it, on 127.0.0.1)
measured in one run, each screen against a bare view, then a live room of 500 players,
its debrief, and a room of 250 players with their cards on screens.

Terms:
    bare view   /bench/hello/ (bench/hello.py, routed only under FIVETRICKS_BENCH=1): the
                whole middleware stack, no query, no template; what the server and Django
                cost alone, the ceiling for any page.
    throughput  requests a second that a closed loop of connections gets from the server
                (wrk when installed, else bench/_client.py), with the latency it saw.
    ratio       a screen's throughput over the bare view's: 1.0 would mean the app's own
                work is free.
    screen room bench/screen_room.py: players at tables of 5 playing on screens at a human
                pace, each screen on the live channel (issue 33).
    idle        bench/idle_streams.py: as many screens holding their streams while nothing
                happens, as a share of one core (issue 41).
    live room   bench/live_room.py: every table's phones and the projectors polling at the
                app's interval while games are reported, for --live-seconds.

The load generator shares the machine's cores with the server, so figures are pessimistic.
It prints a table, then ONE JSON line with every figure (the last line of its output).
Traffic goes to 127.0.0.1 only; every loop stops by time and by count.

Usage: .venv/bin/python bench/compare.py [--players 500] [--seconds 5] [--live-seconds 30]
       [--screen-players 250] [--screen-seconds 45]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import re
import shutil
import subprocess
from dataclasses import dataclass

from _client import Connection, Run, closed_loop, percentile
from _setup import free_port, running_server, setup_django
from debrief_room import debrief_figures, print_debrief
from idle_streams import idle_figures, print_idle
from live_room import HTMX, prepare_event, print_room, report_once, run_room
from screen_room import print_screen_room, screen_figures

LIGHT_CONNECTIONS = 16  # small answers: enough to keep every server thread busy
HEAVY_CONNECTIONS = 4  # whole 500-player pages: more would only queue past any timeout
MAX_REQUESTS = 200_000  # a bound on each closed loop besides its time
SOCKET_ERRORS = r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)"


@dataclass(frozen=True)
class Target:
    key: str
    label: str
    path: str
    headers: dict[str, str]
    expected: int
    connections: int


@dataclass(frozen=True)
class Measure:
    label: str
    connections: int
    requests_per_second: float
    p50_ms: float
    p99_ms: float
    requests: int
    errors: int


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=5, help="per measured screen")
    parser.add_argument("--live-seconds", type=float, default=30)
    parser.add_argument("--screen-players", type=int, default=250, help="the screen room's")
    parser.add_argument("--screen-seconds", type=float, default=45, help="the screen room's")
    parser.add_argument("--python-client", action="store_true", help="do not use wrk")
    parser.add_argument("--workers", type=int, help="passed to serve (default: as make run)")
    parser.add_argument("--threads", type=int, help="passed to serve (default: as make run)")
    return parser.parse_args()


_WRK_UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60_000.0}


def _wrk_ms(text: str) -> float:
    number, unit = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text).groups()
    return float(number) * _WRK_UNITS[unit]


def run_wrk(port: int, target: Target, seconds: float) -> Measure:
    command = ["wrk", "-t1", f"-c{target.connections}", f"-d{max(1, round(seconds))}s",
               "--timeout", "10s", "--latency"]  # fmt: skip
    for name, value in target.headers.items():
        command += ["-H", f"{name}: {value}"]
    output = subprocess.run(
        [*command, f"http://127.0.0.1:{port}{target.path}"],
        capture_output=True, text=True, timeout=seconds + 60, check=True,
    ).stdout  # fmt: skip
    latency = dict(re.findall(r"^\s*(50|99)%\s+(\S+)", output, re.MULTILINE))
    if set(latency) != {"50", "99"}:
        raise RuntimeError(f"unexpected output from {' '.join(command)}:\n{output}")
    requests = int(re.search(r"(\d+) requests in", output).group(1))
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    sockets = re.search(SOCKET_ERRORS, output)
    return Measure(
        target.label,
        target.connections,
        float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1)),
        _wrk_ms(latency["50"]),
        _wrk_ms(latency["99"]),
        requests,
        (int(bad.group(1)) if bad else 0) + (sum(map(int, sockets.groups())) if sockets else 0),
    )


def _measure(label: str, connections: int, run: Run) -> Measure:
    return Measure(
        label,
        connections,
        run.requests_per_second,
        percentile(run.latencies, 0.5) * 1000,
        percentile(run.latencies, 0.99) * 1000,
        len(run.latencies),
        run.errors,
    )


def run_python(port: int, target: Target, seconds: float) -> Measure:
    async def exchange(connection: Connection) -> bool:
        response = await connection.request("GET", target.path, target.headers)
        return response.status == target.expected

    run = asyncio.run(
        closed_loop(
            port, exchange, connections=target.connections, seconds=seconds,
            max_requests=MAX_REQUESTS,
        )
    )  # fmt: skip
    return _measure(target.label, target.connections, run)


def run_reports(port: int, tables, seated, seconds: float) -> Measure:
    """Reports back to back, each at the next table, on as many connections as the phone
    page is measured with: a report is that page and a POST, so report_rps / page_rps
    compares like with like (with 4 connections, as before, one of the server's two
    workers often had none, and the figure measured that)."""
    turn = itertools.count()

    async def exchange(connection: Connection) -> bool:
        table = tables[next(turn) % len(tables)]
        return await report_once(connection, table.token, seated[table.token][0])

    run = asyncio.run(
        closed_loop(
            port, exchange, connections=LIGHT_CONNECTIONS, seconds=seconds, max_requests=5_000
        )
    )
    return _measure("report (page + POST)", LIGHT_CONNECTIONS, run)


async def _check(port: int, targets: list[Target]) -> int:
    """Every target answers as expected before it is timed (and each worker has warmed up)."""
    wrong = 0
    connection = Connection("127.0.0.1", port)
    try:
        for target in targets:
            for _ in range(10):
                response = await connection.request("GET", target.path, target.headers)
                if response.status != target.expected:
                    print(f"  ! {target.label}: {response.status}, not {target.expected}")
                    wrong += 1
    finally:
        await connection.close()
    return wrong


async def _etag(port: int, path: str) -> str:
    connection = Connection("127.0.0.1", port)
    try:
        return (await connection.request("GET", path, HTMX)).headers["etag"]
    finally:
        await connection.close()


def console_cookie(owner) -> str:
    """A signed-in organizer's session, stored in the database the server reads."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(owner)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


def main() -> None:
    args = parse_args()
    data_dir = setup_django()
    event, tables, seated = prepare_event(args.players)
    table = tables[0]
    live_path = f"/t/{table.token}/live/"
    use_wrk = shutil.which("wrk") is not None and not args.python_client
    port = free_port()
    serve_options = [
        *(["--workers", str(args.workers)] if args.workers else []),
        *(["--threads", str(args.threads)] if args.threads else []),
    ]
    with running_server(data_dir, port, *serve_options) as server:
        etag = asyncio.run(_etag(port, live_path))
        light, heavy = LIGHT_CONNECTIONS, HEAVY_CONNECTIONS
        targets = [
            Target("bare", "bare hello view", "/bench/hello/", {}, 200, light),
            Target("poll", "phone poll, unchanged (304)", live_path,
                   {**HTMX, "If-None-Match": etag}, 304, light),
            Target("page", "phone page", f"/t/{table.token}/", {}, 200, light),
            Target("projector", f"projector, {args.players} players",
                   f"/screen/{event.projector_token}/", {}, 200, heavy),
            Target("console", f"console, {args.players} players", f"/console/{event.pk}/",
                   {"Cookie": console_cookie(event.owner)}, 200, heavy),
        ]  # fmt: skip
        errors = asyncio.run(_check(port, targets))
        measure = run_wrk if use_wrk else run_python
        results = {target.key: measure(port, target, args.seconds) for target in targets}
        results["report"] = run_reports(port, tables, seated, args.seconds)
        room = asyncio.run(
            run_room(port, event, tables, seated, seconds=args.live_seconds, projectors=3)
        )
        debrief = debrief_figures(port, event, phones=args.players)  # issue 25
        # Issue 33: a room of players with their cards on screens, on the same server.
        screens = screen_figures(port, players=args.screen_players, seconds=args.screen_seconds)
        # Issue 41: what as many open, idle screens cost (remote_idle_core_share).
        idle = idle_figures(port, server.pid, players=args.screen_players, seconds=30)
    tool = "wrk" if use_wrk else "bench/_client.py"
    print(f"\nthroughput, {args.seconds:.0f} s each, load from {tool} on the same cores:")
    for result in results.values():
        print(
            f"  {result.label:<28} {result.requests_per_second:8.1f} req/s"
            f"  p50 {result.p50_ms:7.1f} ms  p99 {result.p99_ms:7.1f} ms"
            f"  ({result.connections} connections, {result.requests} requests,"
            f" {result.errors} errors)"
        )
    print_room(room, players=args.players, tables=len(tables), phones=2 * len(tables), projectors=3)
    print_debrief(debrief)
    print_screen_room(screens)
    print_idle(idle)
    bare = results["bare"].requests_per_second or float("nan")
    figures = {
        "errors": errors + sum(r.errors for r in results.values()) + room.errors,
        "load_generator": "wrk" if use_wrk else "python",
        "players": args.players,
        "serve_options": " ".join(serve_options) or "as make run",
        **{f"{key}_rps": round(r.requests_per_second, 1) for key, r in results.items()},
        **{f"{key}_p99_ms": round(r.p99_ms, 1) for key, r in results.items()},
        "poll_vs_bare_ratio": round(results["poll"].requests_per_second / bare, 3),
        "page_vs_bare_ratio": round(results["page"].requests_per_second / bare, 3),
        "live_seconds": args.live_seconds,
        **room.summary(),
        **debrief.summary(),  # debrief_answer_p99_ms and the rest of bench/debrief_room.py
        **screens.summary(),  # remote_card_to_table_p99_s, remote_play_p99_ms, remote_errors
        **idle,  # remote_idle_core_share and its bare server's
    }
    figures["errors"] += debrief.errors
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
