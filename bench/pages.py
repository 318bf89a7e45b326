"""What each screen costs to render during a round, at 20 and 500 players: time, queries
and bytes (raw and gzipped), plus an unchanged poll answered with 304.

Terms: a *full render* is what a reload costs; a *poll* is the htmx request a screen
sends with the last ETag; a *report* is a phone's POST of a game's winner with htmx,
answered with the table's live part (the page it was loaded from is not timed).

Usage: .venv/bin/python bench/pages.py
"""

from __future__ import annotations

import gzip
import os
import random
import re
import statistics
import time
import uuid

from _setup import make_owner, setup_django

os.environ["FIVETRICKS_BENCH"] = "1"  # the bare view, measured in the same run for scale
os.environ.setdefault("DJANGO_ALLOWED_HOSTS", "testserver")  # Django's test client
setup_django()

from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from tables.models import Table  # noqa: E402
from tables.writes.reporting import report_game  # noqa: E402
from tournament.models import Event, Player  # noqa: E402
from tournament.rules.table_plan import suggest_table_plan  # noqa: E402
from tournament.writes.rounds import advance_phase  # noqa: E402
from tournament.writes.seating import seat_players  # noqa: E402

REPEATS = 7
HTMX = {"HTTP_HX_REQUEST": "true"}


def playing_event(players: int, owner) -> Event:
    event = Event.objects.create(owner=owner, name=f"Pages {players}", seed=5, rounds_planned=3)
    Player.objects.bulk_create(Player(event=event, name=f"Player {i:03d}") for i in range(players))
    seat_players(event=event, table_count=suggest_table_plan(players).table_count)
    for _ in range(3):
        event = advance_phase(event=event)
    rng = random.Random(players)
    for table in Table.objects.filter(event=event):
        seated = [s.player for s in event.current_round.seats.filter(table=table)]
        for _ in range(3):
            report_game(
                table=table,
                round_number=event.round_number,
                client_key=uuid.uuid4().hex,
                winner=rng.choice(seated),
            )
    event.refresh_from_db()
    return event


def measure(client: Client, label: str, path: str, **headers) -> None:
    timings = []
    for _ in range(REPEATS):
        with CaptureQueriesContext(connection) as queries:
            start = time.perf_counter()
            response = client.get(path, **headers)
            timings.append(time.perf_counter() - start)
    body = response.content
    print(
        f"  {label:<30} {response.status_code}  {statistics.median(timings) * 1000:7.1f} ms"
        f"  {len(queries):3d} queries  {len(body) / 1024:7.1f} KB raw"
        f"  {len(gzip.compress(body)) / 1024:6.1f} KB gzip"
    )


def poll_url(html: str) -> str:
    """The console poller's URL, with the section keys the page holds."""
    return re.search(r'id="live-poll"[^>]*hx-get="([^"]+)"', html)[1].replace("&amp;", "&")


def measure_console_poll(client: Client, event: Event) -> None:
    """A console poll after one game was reported at one table (a new one each time)."""
    url = poll_url(client.get(f"/console/{event.pk}/").content.decode())
    tables = list(Table.objects.filter(event=event).order_by("number"))
    rng = random.Random(1)
    timings = []
    for repeat in range(REPEATS):
        table = tables[repeat % len(tables)]
        seated = [s.player for s in event.current_round.seats.filter(table=table)]
        report_game(
            table=table,
            round_number=event.round_number,
            client_key=uuid.uuid4().hex,
            winner=rng.choice(seated),
        )
        with CaptureQueriesContext(connection) as queries:
            start = time.perf_counter()
            response = client.get(url, **HTMX)
            timings.append(time.perf_counter() - start)
        body = response.content
        url = poll_url(body.decode())
    print(
        f"  {'console poll, 1 table reported':<30} {response.status_code}"
        f"  {statistics.median(timings) * 1000:7.1f} ms  {len(queries):3d} queries"
        f"  {len(body) / 1024:7.1f} KB raw  {len(gzip.compress(body)) / 1024:6.1f} KB gzip"
    )


FORM_FIELD = re.compile(r'name="(client_key|game_number|round_number)" value="([^"]*)"')


def measure_report(event: Event) -> None:
    """A phone's report at the next table each time, from a phone that was never there."""
    tables = list(Table.objects.filter(event=event).order_by("number"))
    timings = []
    for repeat in range(REPEATS * 3):
        table = tables[repeat % len(tables)]
        phone = Client()
        fields = dict(FORM_FIELD.findall(phone.get(f"/t/{table.token}/").content.decode()))
        winner = event.current_round.seats.filter(table=table).first().player_id
        with CaptureQueriesContext(connection) as queries:
            start = time.perf_counter()
            response = phone.post(f"/t/{table.token}/report/", {**fields, "winner": winner}, **HTMX)
            timings.append(time.perf_counter() - start)
        assert b"notice-error" not in response.content, response.content.decode()
    print(
        f"  {'table phone report (POST)':<30} {response.status_code}"
        f"  {statistics.median(timings) * 1000:7.1f} ms  {len(queries):3d} queries"
        f"  {len(response.content) / 1024:7.1f} KB raw"
    )


def main() -> None:
    owner = make_owner()
    measure(Client(), "bare view (no query)", "/bench/hello/")
    for players in (20, 500):
        event = playing_event(players, owner)
        table = Table.objects.filter(event=event).order_by("number").first()
        print(f"{players} players, round 1 with 3 games reported at every table")
        organizer = Client()
        organizer.force_login(owner)
        measure(organizer, "console (full page)", f"/console/{event.pk}/")
        measure_console_poll(organizer, event)
        # Without the section keys a poll re-renders every live section, as before they had
        # keys: the figure to compare with.
        measure(organizer, "console poll, every section", f"/console/{event.pk}/live/", **HTMX)
        measure(organizer, "close-round check", f"/console/{event.pk}/rounds/1/close/")
        phone = Client()
        measure(phone, "table phone (full page)", f"/t/{table.token}/")
        measure_report(event)
        live = phone.get(f"/t/{table.token}/live/", **HTMX)
        measure(
            phone,
            "table phone poll, unchanged",
            f"/t/{table.token}/live/",
            HTTP_IF_NONE_MATCH=live["ETag"],
            **HTMX,
        )
        projector = Client()
        measure(projector, "projector (full page)", f"/screen/{event.projector_token}/")
        stage = projector.get(f"/screen/{event.projector_token}/", **HTMX)
        measure(projector, "projector poll, changed", f"/screen/{event.projector_token}/", **HTMX)
        measure(
            projector,
            "projector poll, unchanged",
            f"/screen/{event.projector_token}/",
            HTTP_IF_NONE_MATCH=stage["ETag"],
            **HTMX,
        )


if __name__ == "__main__":
    main()
