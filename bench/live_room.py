"""A live room on loopback: every table's phones and the projector polling while games are
reported, against the real server (waitress + SQLite), to see what polling costs.

Terms:
    phone      a virtual phone polling its table's live part every 2 s (If-None-Match).
    projector  one virtual projector polling its stage every 2 s.
    report     a virtual phone reporting a game (POST), spread evenly over the run.

It sends traffic only to 127.0.0.1, stops by itself after --seconds, and prints latency
figures per kind of request. Usage:
    .venv/bin/python bench/live_room.py --players 500 --phones-per-table 2 --seconds 20
"""

from __future__ import annotations

import argparse
import heapq
import http.client
import os
import re
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections import defaultdict

from _setup import REPO, make_owner, setup_django

POLL_SECONDS = 2.0


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--phones-per-table", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--reports-per-second", type=float, default=4)
    parser.add_argument("--client-threads", type=int, default=24)
    return parser.parse_args()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def prepare_event(players: int):
    from tables.models import Table
    from tournament.models import Event, Player
    from tournament.rounds import advance_phase
    from tournament.seating import seat_players
    from tournament.table_plan import suggest_table_plan

    owner = make_owner()
    event = Event.objects.create(owner=owner, name="Live room", seed=3, rounds_planned=3)
    Player.objects.bulk_create(Player(event=event, name=f"Player {i:03d}") for i in range(players))
    seat_players(event=event, table_count=suggest_table_plan(players).table_count)
    for _ in range(3):
        event = advance_phase(event=event)
    tables = list(Table.objects.filter(event=event).order_by("number"))
    seated = {
        t.token: list(event.current_round.seats.filter(table=t).values_list("player_id", flat=True))
        for t in tables
    }
    return event, tables, seated


class Stats:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.samples: dict[str, list[float]] = defaultdict(list)
        self.statuses: dict[str, dict[int, int]] = defaultdict(lambda: defaultdict(int))

    def add(self, kind: str, status: int, seconds: float) -> None:
        with self.lock:
            self.samples[kind].append(seconds)
            self.statuses[kind][status] += 1


def main() -> None:
    args = parse_args()
    data_dir = setup_django()
    event, tables, seated = prepare_event(args.players)
    port = free_port()
    env = {**os.environ, "FIVETRICKS_DATA_DIR": str(data_dir)}
    server_log = open(data_dir / "server.log", "w")  # noqa: SIM115 - closed with the server
    print(f"server log: {data_dir / 'server.log'}")
    server = subprocess.Popen(
        [sys.executable, "manage.py", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--no-rehearsal", "--threads", "8"],
        cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=server_log,
    )  # fmt: skip
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        run_room(args, event, tables, seated, port)
    finally:
        server.terminate()
        server.wait(timeout=10)
        server_log.close()


def run_room(args, event, tables, seated, port: int) -> None:
    stats = Stats()
    etags: dict[str, str] = {}
    stop_at = time.monotonic() + args.seconds
    queue: list[tuple[float, int, str, str]] = []
    counter = 0
    start = time.monotonic()
    phones = [
        (f"/t/{t.token}/live/", f"phone:{t.number}:{k}")
        for t in tables
        for k in range(args.phones_per_table)
    ]
    for i, (path, key) in enumerate(phones):
        due = start + POLL_SECONDS * i / len(phones)
        heapq.heappush(queue, (due, counter, "poll", f"{path}|{key}"))
        counter += 1
    projector_path = f"/screen/{event.projector_token}/|projector"
    heapq.heappush(queue, (start, counter, "projector", projector_path))
    report_count = int(args.seconds * args.reports_per_second)
    for i in range(report_count):
        table = tables[i % len(tables)]
        counter += 1
        heapq.heappush(queue, (start + i / args.reports_per_second, counter, "report", table.token))
    lock = threading.Lock()
    csrf_free = re.compile(r'name="(client_key|game_number|round_number)" value="([^"]*)"')

    def worker() -> None:
        nonlocal counter
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        while True:
            with lock:
                if not queue:
                    return
                due, _, kind, payload = heapq.heappop(queue)
            if due > stop_at:
                return
            time.sleep(max(0.0, due - time.monotonic()))
            began = time.perf_counter()
            if kind in ("poll", "projector"):
                path, key = payload.split("|")
                headers = {"HX-Request": "true"}
                if key in etags:
                    headers["If-None-Match"] = etags[key]
                connection.request("GET", path, headers=headers)
                response = connection.getresponse()
                response.read()
                if tag := response.getheader("ETag"):
                    etags[key] = tag
                stats.add("projector poll" if kind == "projector" else "phone poll",
                          response.status, time.perf_counter() - began)  # fmt: skip
                with lock:
                    counter += 1
                    heapq.heappush(queue, (due + POLL_SECONDS, counter, kind, payload))
            else:
                token = payload
                connection.request("GET", f"/t/{token}/")
                page = connection.getresponse().read().decode()
                fields = dict(csrf_free.findall(page))
                winner = seated[token][0]
                body = (
                    f"client_key={fields.get('client_key', '')}&game_number="
                    f"{fields.get('game_number', '')}&round_number={fields.get('round_number', '')}"
                    f"&winner={winner}"
                )
                connection.request(
                    "POST", f"/t/{token}/report/", body=body,
                    headers={"Content-Type": "application/x-www-form-urlencoded"},
                )  # fmt: skip
                response = connection.getresponse()
                response.read()
                stats.add("report (page + POST)", response.status, time.perf_counter() - began)

    threads = [threading.Thread(target=worker) for _ in range(args.client_threads)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    print(
        f"{args.players} players, {len(tables)} tables, {len(phones)} phones + 1 projector "
        f"polling every {POLL_SECONDS:.0f} s, {args.reports_per_second} reports/s, "
        f"{args.seconds:.0f} s"
    )
    for kind, samples in sorted(stats.samples.items()):
        ordered = sorted(samples)
        p95 = ordered[int(0.95 * (len(ordered) - 1))]
        statuses = ", ".join(f"{code}: {n}" for code, n in sorted(stats.statuses[kind].items()))
        print(
            f"  {kind:<22} n={len(samples):5d}  median {statistics.median(samples) * 1000:6.1f} ms"
            f"  p95 {p95 * 1000:6.1f} ms  max {ordered[-1] * 1000:6.1f} ms  [{statuses}]"
        )


if __name__ == "__main__":
    main()
