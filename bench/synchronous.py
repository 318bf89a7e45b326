"""What PRAGMA synchronous=FULL costs a game report, against NORMAL, in one run.

Terms:
    NORMAL / FULL  SQLite's synchronous setting. In WAL mode NORMAL writes a commit to the
                   WAL file without waiting for the disk (it syncs only at checkpoints), so
                   a power cut may lose the last commits; FULL syncs the WAL at every
                   commit. tournament/settings.py uses FULL.
    bare commit    the baseline: one transaction that changes one row and commits, on the
                   same connection and file, measured in the same run: what a sync costs
                   with nothing else around it.
    report         tables.writes.reporting.report_game, as a phone's tap runs it.

Modes alternate from one report to the next, so a slow moment of a shared machine hits
both alike; medians, since a few reports wait behind another process. The database is a
file in a temporary folder (on the disk `make run`'s var/ would be on, here), not in
memory. Prints; asserts nothing about time.

Usage: .venv/bin/python bench/synchronous.py [--reports 400]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
import uuid

from _setup import make_owner, setup_django

setup_django()

from django.db import connection, transaction  # noqa: E402

from tables.models import Table  # noqa: E402
from tables.writes.reporting import report_game  # noqa: E402
from tournament.models import Event, Player  # noqa: E402
from tournament.writes.rounds import advance_phase  # noqa: E402
from tournament.writes.seating import seat_players  # noqa: E402

MODES = ("NORMAL", "FULL")
PLAYERS = 40
# A write SQLite cannot skip (setting a column to itself commits no page, and no sync).
UPDATE_ONE_ROW = f"UPDATE {Event._meta.db_table} SET version = version + 1 WHERE id = %s"


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    parser.add_argument("--reports", type=int, default=400, help="reports (and commits) a mode")
    return parser.parse_args()


def set_mode(mode: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute(f"PRAGMA synchronous={mode}")
        cursor.execute("PRAGMA synchronous")
        assert cursor.fetchone()[0] == MODES.index(mode) + 1


def playing_event():
    owner = make_owner()
    event = Event.objects.create(owner=owner, name="Synchronous", seed=5, rounds_planned=3)
    Player.objects.bulk_create(Player(event=event, name=f"Player {i:03d}") for i in range(PLAYERS))
    seat_players(event=event, table_count=PLAYERS // 4)
    for _ in range(3):
        event = advance_phase(event=event)
    seats: dict[int, list[Player]] = {}
    for seat in event.current_round.seats.select_related("player"):
        seats.setdefault(seat.table_id, []).append(seat.player)
    tables = list(Table.objects.filter(event=event).order_by("number"))
    return event, tables, seats


def bare_commit(event: Event) -> float:
    """ms of a transaction that changes one row and commits."""
    start = time.perf_counter()
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(UPDATE_ONE_ROW, (event.pk,))
    return (time.perf_counter() - start) * 1000


def one_report(event: Event, table: Table, seats, rng: random.Random) -> float:
    """ms of one game report."""
    start = time.perf_counter()
    report_game(
        table=table,
        round_number=event.round_number,
        client_key=uuid.uuid4().hex,
        winner=rng.choice(seats[table.pk]),
    )
    return (time.perf_counter() - start) * 1000


def main() -> None:
    args = parse_args()
    event, tables, seats = playing_event()
    rng = random.Random(1)
    times: dict[tuple[str, str], list[float]] = {}
    for index in range(args.reports * len(MODES)):
        mode = MODES[index % len(MODES)]
        set_mode(mode)
        times.setdefault((mode, "bare"), []).append(bare_commit(event))
        table = tables[index // len(MODES) % len(tables)]
        times.setdefault((mode, "report"), []).append(one_report(event, table, seats, rng))
    print(
        f"{PLAYERS} players, round 1 open; {args.reports} reports and bare commits a mode, "
        "modes alternated"
    )
    print(f"  {'':<8} {'bare commit':>22} {'one report':>22}")
    print(f"  {'':<8} {'median':>10} {'mean':>11} {'median':>10} {'mean':>11}")
    medians = {key: statistics.median(values) for key, values in times.items()}
    for mode in MODES:
        cells = []
        for kind in ("bare", "report"):
            values = times[mode, kind]
            cells.append(f"{statistics.median(values):7.2f} ms {statistics.mean(values):8.2f} ms")
        print(f"  {mode:<8} {cells[0]:>22} {cells[1]:>22}")
    for kind, label in (("bare", "bare commit"), ("report", "report")):
        full, normal = medians["FULL", kind], medians["NORMAL", kind]
        print(
            f"  FULL costs {full - normal:+.2f} ms a {label}, median ({full / normal:.2f}x NORMAL)"
        )


if __name__ == "__main__":
    main()
