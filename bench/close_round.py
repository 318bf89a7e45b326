"""How long the heavy writes take at 20 and 500 players: seating, reporting, closing.

Usage: .venv/bin/python bench/close_round.py
"""

from __future__ import annotations

import random
import time
import uuid

from _setup import make_owner, setup_django

setup_django()

from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from tables.models import Table  # noqa: E402
from tables.writes.reporting import report_game  # noqa: E402
from tournament.models import Event, Player  # noqa: E402
from tournament.reads.close_preview import preview_close  # noqa: E402
from tournament.rules.table_plan import suggest_table_plan  # noqa: E402
from tournament.writes.rounds import advance_phase, close_round  # noqa: E402
from tournament.writes.seating import seat_players  # noqa: E402


def timed(label: str, func):
    with CaptureQueriesContext(connection) as queries:
        start = time.perf_counter()
        result = func()
        elapsed = time.perf_counter() - start
    print(f"  {label:<34} {elapsed * 1000:8.1f} ms  {len(queries):5d} queries")
    return result


def run(players: int) -> None:
    owner = make_owner()
    rng = random.Random(players)
    event = Event.objects.create(owner=owner, name=f"Bench {players}", seed=1, rounds_planned=3)
    Player.objects.bulk_create(Player(event=event, name=f"Player {i:03d}") for i in range(players))
    plan = suggest_table_plan(players)
    print(f"{players} players, {plan.table_count} tables")
    timed(
        "seat_players (table plan)", lambda: seat_players(event=event, table_count=plan.table_count)
    )
    for _ in range(3):
        event = advance_phase(event=event)
    round_ = event.current_round
    seats = list(round_.seats.select_related("player", "table"))
    by_table: dict[int, list] = {}
    for seat in seats:
        by_table.setdefault(seat.table_id, []).append(seat)
    tables = {t.pk: t for t in Table.objects.filter(event=event)}

    def report_all():
        count = 0
        for table_id, table_seats in by_table.items():
            for _ in range(4):
                report_game(
                    table=tables[table_id],
                    round_number=round_.number,
                    client_key=uuid.uuid4().hex,
                    winner=rng.choice(table_seats).player,
                )
                count += 1
        return count

    start = time.perf_counter()
    count = timed("report 4 games at every table", report_all)
    per_report = (time.perf_counter() - start) / count * 1000
    print(f"  {'one report (mean)':<34} {per_report:8.1f} ms")
    timed("preview_close", lambda: preview_close(round_))
    timed("close_round (commit next seating)", lambda: close_round(round_=round_, by=owner))


if __name__ == "__main__":
    for size in (20, 500):
        run(size)
