"""What PRAGMA synchronous=FULL costs a game report, against NORMAL, in one run.

Terms:
    NORMAL / FULL  SQLite's synchronous setting. In WAL mode NORMAL writes a commit to the
                   WAL file without waiting for the disk (it syncs only at checkpoints), so
                   a power cut may lose the last commits; FULL syncs the WAL at every
                   commit. tournament/settings.py uses FULL.
    bare commit    the baseline: one transaction that changes one row and commits, on the
                   same connection and file, measured in the same run: what a sync costs
                   with nothing else around it.
    report         tables.reporting.report_game, as a phone's tap runs it.

Modes alternate round by round, so a slow moment of a shared machine hits both. The
database is a file in a temporary folder (the disk `make run`'s var/ would be on, here),
not in memory. Prints; asserts nothing about time.

Usage: .venv/bin/python bench/synchronous.py [--rounds 5] [--reports 60]
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
from tables.reporting import report_game  # noqa: E402
from tournament.models import Event, Player  # noqa: E402
from tournament.rounds import advance_phase  # noqa: E402
from tournament.seating import seat_players  # noqa: E402

MODES = ("NORMAL", "FULL")
PLAYERS = 40
# A write SQLite cannot skip (setting a column to itself commits no page, and no sync).
UPDATE_ONE_ROW = f"UPDATE {Event._meta.db_table} SET version = version + 1 WHERE id = %s"


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5, help="rounds of each mode, alternated")
    parser.add_argument("--reports", type=int, default=60, help="reports (and commits) a round")
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


def bare_commits(event: Event, count: int) -> float:
    """Mean ms of a transaction that changes one row and commits."""
    start = time.perf_counter()
    for _ in range(count):
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(UPDATE_ONE_ROW, (event.pk,))
    return (time.perf_counter() - start) / count * 1000


def reports(event: Event, tables, seats, count: int, rng: random.Random) -> float:
    """Mean ms of one game report."""
    start = time.perf_counter()
    for index in range(count):
        table = tables[index % len(tables)]
        report_game(
            table=table,
            round_number=event.round_number,
            client_key=uuid.uuid4().hex,
            winner=rng.choice(seats[table.pk]),
        )
    return (time.perf_counter() - start) / count * 1000


def main() -> None:
    args = parse_args()
    event, tables, seats = playing_event()
    rng = random.Random(1)
    figures: dict[tuple[str, str], list[float]] = {}
    for _ in range(args.rounds):
        for mode in MODES:
            set_mode(mode)
            figures.setdefault((mode, "bare"), []).append(bare_commits(event, args.reports))
            figures.setdefault((mode, "report"), []).append(
                reports(event, tables, seats, args.reports, rng)
            )
    print(
        f"{PLAYERS} players, round 1 open; {args.rounds} rounds x {args.reports} of each, "
        "modes alternated; median of the rounds' means"
    )
    print(f"  {'':<8} {'bare commit':>12} {'one report':>12}   rounds' means, min to max")
    medians = {key: statistics.median(values) for key, values in figures.items()}
    for mode in MODES:
        bare, report = figures[mode, "bare"], figures[mode, "report"]
        print(
            f"  {mode:<8} {medians[mode, 'bare']:9.2f} ms {medians[mode, 'report']:9.2f} ms"
            f"   bare {min(bare):.2f} to {max(bare):.2f}, report {min(report):.2f} to"
            f" {max(report):.2f}"
        )
    for kind, label in (("bare", "bare commit"), ("report", "one report")):
        full, normal = medians["FULL", kind], medians["NORMAL", kind]
        print(f"  FULL costs {full - normal:+.2f} ms a {label} ({full / normal:.2f}x NORMAL)")


if __name__ == "__main__":
    main()
