"""What open, idle screens cost the server: players whose screens hold the live channel's
stream while nothing happens at their tables (a study phase, a paused round, the time
between two tricks), measured as a share of one core.

Terms:
    idle stream   a player's stream (tournament.serving.live_channel) that is open and read, on
                  a round in play where nobody plays: it gets only beats.
    core share    CPU seconds used over wall seconds, 1.0 being one core kept busy: the
                  server's processes (granian and its workers) and, on PostgreSQL
                  (DATABASE_URL), the database's processes on this machine.
    bare          the same measure over the same time, the server up and no stream open,
                  in the same run: what an idle server costs by itself.
    figure        ``remote_idle_core_share`` (the streams' run) and
                  ``remote_idle_core_share_bare``; the goal (issue 41) is under 0.02 for
                  250 streams.

Usage (its own server):  .venv/bin/python bench/idle_streams.py --players 250 --seconds 30
compare.py (`make bench`) runs it on its server after the screen room.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import time
from pathlib import Path

from _client import Stream
from _setup import free_port, running_server, setup_django
from screen_room import prepare_screen_event

OPENING = 16  # streams opened at once
TICKS = os.sysconf("SC_CLK_TCK")


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=250)
    parser.add_argument("--seconds", type=float, default=30)
    return parser.parse_args()


def _stat(pid: int) -> tuple[str, int, float] | None:
    """A process's name, parent and CPU seconds (user and system), from /proc."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    name = text[text.index("(") + 1 : text.rindex(")")]
    fields = text[text.rindex(")") + 2 :].split()
    return name, int(fields[1]), (int(fields[11]) + int(fields[12])) / TICKS


def cpu_seconds(root: int, *, database: bool) -> float:
    """The CPU seconds of ``root`` and its descendants, and of the postgres processes when
    ``database``."""
    found = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (stat := _stat(int(entry))) is not None:
            found[int(entry)] = stat
    family, grew = {root}, True
    while grew:
        grew = False
        for pid, (_name, parent, _cpu) in found.items():
            if parent in family and pid not in family:
                family.add(pid)
                grew = True
    total = sum(found[pid][2] for pid in family if pid in found)
    if database:
        total += sum(cpu for name, _parent, cpu in found.values() if name.startswith("postgres"))
    return total


def core_share(root: int, seconds: float, *, database: bool) -> float:
    start_cpu, start = cpu_seconds(root, database=database), time.monotonic()
    time.sleep(seconds)
    used = cpu_seconds(root, database=database) - start_cpu
    return used / (time.monotonic() - start)


async def _hold(stream: Stream, until: float) -> int:
    """Read ``stream`` until ``until``; the messages it got (beats, mostly)."""
    got = 0
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout_at(until):
            while True:
                await stream.message()
                got += 1
    return got


async def _idle(port: int, tables: dict, root: int, seconds: float, database: bool):
    streams = [
        Stream(port, f"/t/p/{token}/stream/", f"ft_phone={phone}")
        for seats in tables.values()
        for token, phone in seats
    ]
    gate = asyncio.Semaphore(OPENING)

    async def opened(stream: Stream) -> None:
        async with gate:
            await stream.open()

    await asyncio.gather(*(opened(stream) for stream in streams))
    loop = asyncio.get_running_loop()
    until = loop.time() + seconds + 2
    holding = [asyncio.ensure_future(_hold(stream, until)) for stream in streams]
    await asyncio.sleep(1)  # the arrivals noted; then the room is idle
    share = await loop.run_in_executor(None, lambda: core_share(root, seconds, database=database))
    messages = sum(await asyncio.gather(*holding))
    for stream in streams:
        await stream.close()
    return share, messages


def idle_figures(port: int, server_pid: int, *, players: int, seconds: float) -> dict:
    """Both measures on a running server: bare first, then with the streams open."""
    database = bool(os.environ.get("DATABASE_URL"))
    _event, tables = prepare_screen_event(players)
    bare = core_share(server_pid, seconds, database=database)
    share, messages = asyncio.run(_idle(port, tables, server_pid, seconds, database))
    return {
        "remote_idle_streams": sum(len(seats) for seats in tables.values()),
        "remote_idle_seconds": seconds,
        "remote_idle_core_share": round(share, 4),
        "remote_idle_core_share_bare": round(bare, 4),
        "remote_idle_messages": messages,
    }


def print_idle(figures: dict) -> None:
    print(
        f"idle streams: {figures['remote_idle_streams']} open for "
        f"{figures['remote_idle_seconds']:.0f} s: {figures['remote_idle_core_share']:.2%} of a"
        f" core (bare server {figures['remote_idle_core_share_bare']:.2%}),"
        f" {figures['remote_idle_messages']} messages"
    )


def main() -> None:
    args = parse_args()
    data_dir = setup_django()
    port = free_port()
    with running_server(data_dir, port) as server:
        figures = idle_figures(port, server.pid, players=args.players, seconds=args.seconds)
    print_idle(figures)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
