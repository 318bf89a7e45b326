"""A live room on loopback: every table's phones and the projectors polling while games are
reported, against the real server (`manage.py serve`: granian + SQLite), to see what a
room costs.

Terms:
    interval   how often the screens poll: the app's own (tournament.common.polling
               .POLL_INTERVAL_SECONDS, which static/js/poll.js follows), or --poll-seconds.
    phone      a virtual phone polling its table's live part every interval with its last
               ETag, on its own keep-alive connection, as htmx does.
    projector  a virtual projector polling its stage every interval with its last ETag.
    report     a virtual phone (not one of the polling ones) reporting a game: GET the
               page, POST the winner; spread evenly over the run.
    opened     before the measured run, every phone and projector loads its screen once
               (OPENING at a time) and keeps its ETag, as a room's phones have their pages
               open when the round starts: the run measures a room in play, not 250 phones
               opening their pages in the same half second on a server just started
               (that burst took the first two seconds and every p99 with it).
    report to projector
               from a report's start until a projector's first poll sent after the report
               was answered has come back: what the room waits to see a result.
    report to phone
               from the report's POST answered until each polling phone of the same
               table has back its first poll sent after that: what the table's other
               phones wait to see it (and to be asked to confirm it).

It sends traffic only to 127.0.0.1, stops by itself after --seconds, and prints latency
figures per kind of request. Usage:
    .venv/bin/python bench/live_room.py --players 500 --seconds 30
"""

from __future__ import annotations

import argparse
import asyncio
import re
import time
from collections import defaultdict
from dataclasses import dataclass, field

from _client import FAILURES, Connection, percentile
from _setup import free_port, make_owner, running_server, setup_django

HTMX = {"HX-Request": "true"}
OPENING = 16  # screens opened at once before the run: about what the server has threads for
FORM_FIELD = re.compile(r'name="(client_key|game_number|round_number)" value="([^"]*)"')
REFUSED = b"notice notice-error"


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--phones-per-table", type=int, default=2)
    parser.add_argument("--projectors", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--reports-per-second", type=float, default=4)
    parser.add_argument("--poll-seconds", type=float, help="default: the app's interval")
    return parser.parse_args()


def app_poll_seconds() -> float:
    """The interval the app's pages poll at (after setup_django: the app is importable)."""
    from tournament.common.polling import POLL_INTERVAL_SECONDS

    return float(POLL_INTERVAL_SECONDS)


def prepare_event(players: int):
    """An event of ``players`` in round 1, open: its tables and who sits at each."""
    from tables.models import Table
    from tournament.models import Event, Player
    from tournament.rules.table_plan import suggest_table_plan
    from tournament.writes.rounds import advance_phase
    from tournament.writes.seating import seat_players

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


async def report_once(connection: Connection, token: str, winner: int) -> bool:
    """One game reported as a phone does it: load the page, post the winner (htmx)."""
    page = await connection.request("GET", f"/t/{token}/")
    if page.status != 200:
        return False
    fields = dict(FORM_FIELD.findall(page.body.decode()))
    body = (
        f"client_key={fields.get('client_key', '')}&game_number={fields.get('game_number', '')}"
        f"&round_number={fields.get('round_number', '')}&winner={winner}"
    ).encode()
    headers = {**HTMX, "Content-Type": "application/x-www-form-urlencoded"}
    answer = await connection.request("POST", f"/t/{token}/report/", headers, body)
    return answer.status == 200 and REFUSED not in answer.body


@dataclass
class Room:
    """What one live room measured."""

    seconds: float = 0.0
    poll_seconds: float = 0.0
    samples: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    statuses: dict[str, dict[int, int]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(int))
    )
    errors: int = 0
    # (began, answered) of every report, and (sent, answered) of every projector's polls.
    reports: list[tuple[float, float]] = field(default_factory=list)
    projector_polls: list[list[tuple[float, float]]] = field(default_factory=list)
    # The table of each report in ``reports``, and the (sent, answered) polls of each
    # phone of each table, by the table's token.
    report_tables: list[str] = field(default_factory=list)
    phone_polls: dict[str, list[list[tuple[float, float]]]] = field(
        default_factory=lambda: defaultdict(list)
    )

    def report_to_projector(self) -> list[float]:
        waits = []
        for began, answered in self.reports:
            for polls in self.projector_polls:
                seen = next((end for sent, end in polls if sent >= answered), None)
                if seen is not None:  # None: the run ended before that projector polled
                    waits.append(seen - began)
        return waits

    def report_to_phone(self) -> list[float]:
        waits = []
        for (_began, answered), token in zip(self.reports, self.report_tables, strict=True):
            for polls in self.phone_polls[token]:
                seen = next((end for sent, end in polls if sent >= answered), None)
                if seen is not None:  # None: the run ended before that phone polled
                    waits.append(seen - answered)
        return waits

    def summary(self) -> dict[str, float]:
        polls = self.samples["phone poll"]
        reports = self.samples["report (page + POST)"]
        waits = self.report_to_projector()
        phone_waits = self.report_to_phone()
        not_modified = self.statuses["phone poll"].get(304, 0)
        return {
            "live_errors": self.errors,
            "live_poll_p50_ms": round(percentile(polls, 0.50) * 1000, 1),
            "live_poll_p99_ms": round(percentile(polls, 0.99) * 1000, 1),
            "live_poll_304_share": round(not_modified / len(polls), 3) if polls else 0.0,
            "live_projector_p99_ms": round(
                percentile(self.samples["projector poll"], 0.99) * 1000, 1
            ),
            "live_report_p50_ms": round(percentile(reports, 0.50) * 1000, 1),
            "live_report_p99_ms": round(percentile(reports, 0.99) * 1000, 1),
            "live_reports": len(reports),
            "live_report_to_projector_p99_s": round(percentile(waits, 0.99), 2),
            "live_report_to_projector_max_s": round(max(waits, default=0.0), 2),
            "live_report_to_phone_p99_s": round(percentile(phone_waits, 0.99), 2),
            "live_report_to_phone_max_s": round(max(phone_waits, default=0.0), 2),
            "live_poll_seconds": self.poll_seconds,
        }


async def run_room(
    port: int,
    event,
    tables,
    seated: dict[str, list[int]],
    *,
    seconds: float,
    phones_per_table: int = 2,
    projectors: int = 3,
    reports_per_second: float = 4,
    poll_seconds: float | None = None,
) -> Room:
    interval = app_poll_seconds() if poll_seconds is None else poll_seconds
    room = Room(projector_polls=[[] for _ in range(projectors)], poll_seconds=interval)
    phones = [table.token for table in tables for _ in range(phones_per_table)]
    screens = [f"/t/{token}/live/" for token in phones]
    screens += [f"/screen/{event.projector_token}/"] * projectors
    opening = asyncio.Semaphore(OPENING)

    async def open_screen(path: str) -> tuple[Connection, str | None]:
        connection = Connection("127.0.0.1", port)
        async with opening:
            response = await connection.request("GET", path, HTMX)
        if response.status != 200:
            room.errors += 1
        return connection, response.headers.get("etag")

    opened = await asyncio.gather(*(open_screen(path) for path in screens))
    start = time.perf_counter()
    stop_at = start + seconds

    async def poller(
        kind: str, path: str, offset: float, screen: tuple[Connection, str | None], polls=None
    ) -> None:
        connection, etag = screen
        due = start + offset
        try:
            while due < stop_at:
                await asyncio.sleep(max(0.0, due - time.perf_counter()))
                headers = dict(HTMX, **({"If-None-Match": etag} if etag else {}))
                sent = time.perf_counter()
                try:
                    response = await connection.request("GET", path, headers)
                except FAILURES:
                    room.errors += 1
                else:
                    answered = time.perf_counter()
                    room.samples[kind].append(answered - sent)
                    room.statuses[kind][response.status] += 1
                    if response.status not in (200, 304):
                        room.errors += 1
                    etag = response.headers.get("etag", etag)
                    if polls is not None:
                        polls.append((sent, answered))
                # The next poll an interval after this one was due, or now if it is late.
                due = max(due + interval, time.perf_counter())
        finally:
            await connection.close()

    reporters: asyncio.Queue[Connection] = asyncio.Queue()
    for _ in range(8):
        reporters.put_nowait(Connection("127.0.0.1", port))

    async def reporter(index: int) -> None:
        await asyncio.sleep(max(0.0, start + index / reports_per_second - time.perf_counter()))
        table = tables[index % len(tables)]
        connection = await reporters.get()
        began = time.perf_counter()
        try:
            ok = await report_once(connection, table.token, seated[table.token][0])
        except FAILURES:
            ok = False
        finally:
            reporters.put_nowait(connection)
        answered = time.perf_counter()
        if ok:
            room.samples["report (page + POST)"].append(answered - began)
            room.reports.append((began, answered))
            room.report_tables.append(table.token)
        else:
            room.errors += 1

    tasks = []
    for i, token in enumerate(phones):
        polls: list[tuple[float, float]] = []
        room.phone_polls[token].append(polls)
        tasks.append(poller("phone poll", screens[i], interval * i / len(phones), opened[i], polls))
    tasks += [
        poller(
            "projector poll",
            screens[len(phones) + i],
            interval * i / projectors,
            opened[len(phones) + i],
            room.projector_polls[i],
        )
        for i in range(projectors)
    ]
    tasks += [reporter(i) for i in range(int(seconds * reports_per_second))]
    await asyncio.gather(*tasks)
    while not reporters.empty():
        await reporters.get_nowait().close()
    room.seconds = time.perf_counter() - start
    return room


def print_room(room: Room, *, players: int, tables: int, phones: int, projectors: int) -> None:
    print(
        f"live room: {players} players, {tables} tables, {phones} phones and {projectors} "
        f"projectors polling every {room.poll_seconds:g} s, "
        f"{len(room.samples['report (page + POST)'])} reports in {room.seconds:.0f} s"
    )
    for kind, samples in sorted(room.samples.items()):
        counts = sorted(room.statuses[kind].items())
        statuses = f"  [{', '.join(f'{code}: {n}' for code, n in counts)}]" if counts else ""
        print(
            f"  {kind:<22} n={len(samples):5d}  median {percentile(samples, 0.5) * 1000:6.1f} ms"
            f"  p95 {percentile(samples, 0.95) * 1000:6.1f} ms"
            f"  p99 {percentile(samples, 0.99) * 1000:6.1f} ms"
            f"  max {max(samples) * 1000:6.1f} ms{statuses}"
        )
    for label, waits in (
        ("report to projector", room.report_to_projector()),
        ("report to phone", room.report_to_phone()),
    ):
        print(
            f"  {label:<22} median {percentile(waits, 0.5):.2f} s"
            f"  p99 {percentile(waits, 0.99):.2f} s  max {max(waits, default=0):.2f} s"
        )
    print(f"  errors {room.errors}")


def main() -> None:
    args = parse_args()
    data_dir = setup_django()
    event, tables, seated = prepare_event(args.players)
    port = free_port()
    with running_server(data_dir, port):
        room = asyncio.run(
            run_room(
                port, event, tables, seated,
                seconds=args.seconds, phones_per_table=args.phones_per_table,
                projectors=args.projectors, reports_per_second=args.reports_per_second,
                poll_seconds=args.poll_seconds,
            )
        )  # fmt: skip
    print_room(
        room, players=args.players, tables=len(tables),
        phones=len(tables) * args.phones_per_table, projectors=args.projectors,
    )  # fmt: skip


if __name__ == "__main__":
    main()
