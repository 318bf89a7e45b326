"""Crash test: the real server under a bounded load of reports, killed with SIGKILL at
five moments and restarted, then every acknowledged report looked up in the database.

Terms:
    report        one game's winner posted by a phone, as a phone posts it (tables' report
                  view, with the client key its page gave).
    acknowledged  the server answered that post with 200 and no refusal: the phone was told
                  "saved". Only those count; a post cut off by a kill may or may not be stored.
    stored        an acknowledged report whose client key is in the database afterwards.
    lost          acknowledged but not stored: must be 0.
    kill          SIGKILL to the server's whole process group (granian and its workers),
                  nothing flushed, no clean-up; then the server is started again on the same
                  database, as a facilitator would after a laptop crash.

POSIX only (process groups and SIGKILL). Loopback only; bounded in time (--seconds of load
between kills, a start-up deadline) and in count (--kills). The last line is one JSON object:
    {"kills": 5, "acknowledged": N, "stored": N, "lost": 0, "integrity_check": "ok"}

    .venv/bin/python bench/crash_test.py            # what `make crash-test` runs
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from _setup import REPO, SERVER_START_SECONDS, free_port, make_owner, setup_django

FORM_FIELD = re.compile(r'name="(client_key|game_number|round_number)" value="([^"]*)"')
REFUSED = b"notice notice-error"
HTMX = {"HX-Request": "true", "Content-Type": "application/x-www-form-urlencoded"}


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=5)
    parser.add_argument("--players", type=int, default=60)
    parser.add_argument("--phones", type=int, default=8, help="reporting threads")
    parser.add_argument(
        "--seconds", type=float, default=4.0, help="load between two kills (randomised ±50%%)"
    )
    parser.add_argument("--seed", type=int, default=11)
    return parser.parse_args()


def prepare_event(players: int) -> tuple[list[str], dict[str, list[int]]]:
    """An event of ``players`` in round 1, open: its table tokens and who sits at each."""
    from tables.models import Table
    from tournament.models import Event, Player
    from tournament.rules.table_plan import suggest_table_plan
    from tournament.writes.rounds import advance_phase
    from tournament.writes.seating import seat_players

    event = Event.objects.create(owner=make_owner(), name="Crash test", seed=5, rounds_planned=3)
    Player.objects.bulk_create(Player(event=event, name=f"Player {i:03d}") for i in range(players))
    seat_players(event=event, table_count=suggest_table_plan(players).table_count)
    for _ in range(3):  # study, practice, round 1
        event = advance_phase(event=event)
    seated = {
        table.token: list(
            event.current_round.seats.filter(table=table).values_list("player_id", flat=True)
        )
        for table in Table.objects.filter(event=event).order_by("number")
    }
    return list(seated), seated


@dataclass
class Tally:
    lock: threading.Lock = field(default_factory=threading.Lock)
    acknowledged: set[str] = field(default_factory=set)
    attempts: int = 0
    cut_off: int = 0

    def add(self, *, client_key: str | None, cut_off: bool = False) -> None:
        with self.lock:
            self.attempts += 1
            self.cut_off += cut_off
            if client_key:
                self.acknowledged.add(client_key)


def report_once(port: int, token: str, winner: int) -> str | None:
    """Load the table's page and post a winner; the client key if the server said saved."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("GET", f"/t/{token}/")
        page = connection.getresponse()
        body = page.read()
        if page.status != 200:
            return None
        fields = dict(FORM_FIELD.findall(body.decode()))
        client_key = fields.get("client_key", "")
        form = (
            f"client_key={client_key}&game_number={fields.get('game_number', '')}"
            f"&round_number={fields.get('round_number', '')}&winner={winner}"
        )
        connection.request("POST", f"/t/{token}/report/", form.encode(), HTMX)
        answer = connection.getresponse()
        reply = answer.read()
        return client_key if answer.status == 200 and REFUSED not in reply else None
    finally:
        connection.close()


def phone(port: int, tables: dict[str, list[int]], tally: Tally, stop: threading.Event,
          seed: int) -> None:  # fmt: skip
    chooser = random.Random(seed)
    tokens = list(tables)
    while not stop.is_set():
        token = chooser.choice(tokens)
        try:
            tally.add(client_key=report_once(port, token, chooser.choice(tables[token])))
        except (OSError, http.client.HTTPException):
            # Refused while the server is down, or cut off by a kill: never acknowledged.
            tally.add(client_key=None, cut_off=True)
            stop.wait(0.2)


def answers(port: int) -> bool:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
    try:
        connection.request("GET", "/bench/hello/")
        return connection.getresponse().status == 200
    except (OSError, http.client.HTTPException):
        return False
    finally:
        connection.close()


def start_server(data_dir: Path, port: int, log) -> subprocess.Popen:
    env = {**os.environ, "FIVETRICKS_DATA_DIR": str(data_dir), "FIVETRICKS_BENCH": "1"}
    server = subprocess.Popen(
        [sys.executable, "manage.py", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--no-rehearsal"],
        cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT,
        start_new_session=True,  # its own process group, so one kill reaches every worker
    )  # fmt: skip
    deadline = time.monotonic() + SERVER_START_SECONDS
    while not answers(port):
        if server.poll() is not None or time.monotonic() > deadline:
            kill(server)
            raise RuntimeError(f"the server did not start; see {log.name}")
        time.sleep(0.1)
    return server


def kill(server: subprocess.Popen) -> None:
    with contextlib.suppress(ProcessLookupError):  # already gone
        os.killpg(server.pid, signal.SIGKILL)
    server.wait(timeout=30)


def stored_keys(database: Path, keys: set[str]) -> tuple[int, str]:
    """How many of ``keys`` the database holds, and its integrity_check verdict."""
    with sqlite3.connect(database) as connection:
        verdict = connection.execute("PRAGMA integrity_check").fetchone()[0]
        present = {
            row[0]
            for row in connection.execute(
                "SELECT client_key FROM tables_gamereport WHERE client_key IN (SELECT value FROM "
                "json_each(?))",
                (json.dumps(sorted(keys)),),
            )
        }
    return len(present), verdict


def main() -> None:
    args = parse_args()
    data_dir = setup_django()
    tokens, tables = prepare_event(args.players)
    from django.db import connections

    connections.close_all()  # the server owns the database from here on
    from django.db import connection

    database = Path(connection.settings_dict["NAME"])
    if connection.vendor != "sqlite":
        raise SystemExit("the crash test checks the embedded SQLite database; unset DATABASE_URL")
    print(f"crash test: {args.players} players at {len(tokens)} tables, {args.phones} phones,"
          f" {args.kills} kills, data in {data_dir}", flush=True)  # fmt: skip

    port = free_port()
    tally, stop = Tally(), threading.Event()
    timing = random.Random(args.seed)
    log = open(data_dir / "server.log", "w")  # noqa: SIM115 - kept open across restarts
    server = start_server(data_dir, port, log)
    phones = [
        threading.Thread(target=phone, args=(port, tables, tally, stop, args.seed + i), daemon=True)
        for i in range(args.phones)
    ]
    for thread in phones:
        thread.start()
    try:
        for number in range(1, args.kills + 1):
            time.sleep(args.seconds * timing.uniform(0.5, 1.5))
            with tally.lock:
                so_far = len(tally.acknowledged)
            kill(server)
            print(f"kill {number}: SIGKILL after {so_far} acknowledged reports; restarting…",
                  flush=True)  # fmt: skip
            server = start_server(data_dir, port, log)
        time.sleep(args.seconds)  # reports after the last restart must be kept too
    finally:
        stop.set()
        for thread in phones:
            thread.join(timeout=15)
        kill(server)
        log.close()

    stored, verdict = stored_keys(database, tally.acknowledged)
    acknowledged = len(tally.acknowledged)
    print(f"posts tried: {tally.attempts}, cut off or refused by a down server: {tally.cut_off}")
    print(json.dumps({
        "kills": args.kills, "acknowledged": acknowledged, "stored": stored,
        "lost": acknowledged - stored, "integrity_check": verdict,
    }))  # fmt: skip
    if acknowledged == 0 or stored != acknowledged or verdict != "ok":
        sys.exit(1)


if __name__ == "__main__":
    main()
