"""A hosted load: many events at once (by default 20 on screens and 2 in a room, of 50
players each) on one PostgreSQL served by two app servers, one of them killed at half
time, to see what players lose when a server dies, and what the survivor holds; before
it, a ramp of screen events finds the largest load the two servers keep real-time.

Terms:
    room event    an event whose cards are on the tables (bench/live_room.py): each table
                  has two phones polling its live part with their ETag at the app's
                  interval, and a projector polls the event's screen; a table's game is
                  reported every 20 to 40 s (faster than people play) by one phone and
                  confirmed by the other.
    screen event  an event whose cards are on screens (bench/screen_room.py): each player
                  holds the live channel's stream and plays a card at a human pace (1 to
                  3 s) when it is their turn, then points at the trick's winner.
    servers       two `manage.py serve` (granian, ASGI, as `make run` serves) on one
                  PostgreSQL, DATABASE_URL and DJANGO_SECRET_KEY shared (bench/_hosted.py).
                  Clients are dealt round the servers, so each table's screens and phones
                  sit on both.
    kill          at half time the second server's process group gets SIGKILL. Its
                  clients go on against the first: what got no answer is sent again with
                  the same client key, streams reopen there (bench/_hosted_clients.py,
                  Terms: re-send, move).
    acknowledged  a play, pointing or report the server answered "stored".
    stored        counted in the database after the run, by client key.
    lost          acknowledged but not stored (goal 0).
    doubled       stored more than once for one key, stored under a key never sent, or a
                  game stored at a room table under a number no phone reported (goal 0).
    card to table from a play's POST until each other player of the table holds a state
                  showing the card, counted only where that player's stream was on the
                  surviving server when the card was played and when it showed, and only
                  for plays answered at their first POST (a re-sent play waited for the
                  failover, counted as such).
    failover      for a screen of the killed server: from the kill until its stream is open
                  on the survivor (the stream's retry of 1 s included).
    bare view     /bench/hello/ (bench/hello.py): throughput on both servers before the load
                  (the ceiling), and a probe's latency on the survivor during the load.
    errors        failed exchanges with a live server, unexpected answers, streams broken on
                  a live server. What the kill cut off is counted apart (``cut_off``).
    ramp          before the run, steps of screen events alone on both servers (100, 250,
                  500 and 1,000 players by default, ``--step-seconds`` each, no kill): card
                  to table at each step (on either server), and the largest load whose
                  99th percentile stayed under RAMP_GOAL_S without an error
                  (``hosted_largest_load_under_0_3_s``; 0 when none did).
    machine       how busy the machine's cores were before the bench started anything
                  (``hosted_machine_busy_before``: other work, which a shared machine may
                  run out of this one's sight); the load generator's own CPU during the
                  run, in cores, and how late its event loop woke a sleeping task (p99):
                  every time taken at a client includes that lateness.

The load generator shares the machine's cores with both servers and PostgreSQL, so every
figure is pessimistic. The process exits with 1 when anything was lost or doubled, or
nothing acknowledged; never for a time. Traffic goes to 127.0.0.1 only; every loop
stops by time. It needs PostgreSQL (the servers share it): `make bench-hosted` starts a
throwaway cluster, .ci/with-postgres, and the last line printed is one JSON object with
every figure.

    make bench-hosted
    .ci/with-postgres .venv/bin/python bench/hosted_load.py --seconds 20 --players 20
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import random
import secrets
import sys
import time
from dataclasses import dataclass, field

from _client import percentile
from _hosted import Pool, app_servers, bare_throughput, kill, machine_busy, probe_bare
from _hosted_clients import HostedScreenRoom, MovingPlayer, Phone, Poller, Tally, table_games
from _hosted_stored import Stored, count_stored
from _setup import setup_django

OPENING = 16  # screens opened at once before the run
PROGRESS_SECONDS = 5.0
LAG_SECONDS = 0.1  # how often the load generator checks its own lateness
RAMP_GOAL_S = 0.3  # card to table at the 99th percentile (issue 41, item 7)


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60, help="the measured run")
    parser.add_argument("--players", type=int, default=50, help="per event")
    parser.add_argument("--room-events", type=int, default=2)
    parser.add_argument("--screen-events", type=int, default=20)
    parser.add_argument(
        "--ramp",
        default="100,250,500,1000",
        help="players on screens in each step before the run (Terms: ramp); '' for none",
    )
    parser.add_argument("--step-seconds", type=float, default=20, help="each step of the ramp")
    parser.add_argument("--bare-seconds", type=float, default=3, help="the bare view, before")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--workers", type=int, help="each server's (default: as make run)")
    parser.add_argument("--threads", type=int, help="each worker's (default: as make run)")
    return parser.parse_args()


@dataclass
class Clients:
    """Every client of the run, and the events they play at."""

    tally: Tally = field(default_factory=Tally)
    rooms: list[HostedScreenRoom] = field(default_factory=list)  # one per screen event
    players: list[MovingPlayer] = field(default_factory=list)
    phones: list[Phone] = field(default_factory=list)
    projectors: list[Poller] = field(default_factory=list)
    tables: list[tuple[list[Phone], list[int]]] = field(default_factory=list)  # room tables
    room_events: list = field(default_factory=list)
    screen_events: list = field(default_factory=list)


def prepare(args: argparse.Namespace, pool: Pool) -> Clients:
    """The events in round 1, open, and their clients dealt round the servers."""
    from live_room import prepare_event
    from screen_room import prepare_screen_event

    from tournament.common.phone_ids import signed_phone_id

    clients = Clients()
    rng = random.Random(args.seed)
    dealt = itertools.count()  # the n-th client goes to server n % 2
    for _ in range(args.room_events):
        event, tables, seated = prepare_event(args.players)
        clients.room_events.append(event)
        for table in tables:
            phones = [
                Phone(clients.tally, pool, next(dealt), table.token,
                      signed_phone_id(f"hostedphone{table.pk:0>8}{i}"))
                for i in range(2)
            ]  # fmt: skip
            clients.phones += phones
            clients.tables.append((phones, seated[table.token]))
        path = f"/screen/{event.projector_token}/"
        clients.projectors.append(Poller(clients.tally, pool, next(dealt), path))
    for _ in range(args.screen_events):
        event, tables = prepare_screen_event(args.players)
        clients.screen_events.append(event)
        room = HostedScreenRoom(players=args.players, tally=clients.tally)
        clients.rooms.append(room)
        clients.players += [
            MovingPlayer(room, pool, next(dealt), number, token, phone,
                         random.Random(rng.random()))
            for number, seats in sorted(tables.items())
            for token, phone in seats
        ]  # fmt: skip
    return clients


async def open_all(clients: Clients) -> None:
    """Every screen loads its page once before the run, as a room's screens are open
    when the round starts (bench/live_room.py, Terms: opened)."""
    gate = asyncio.Semaphore(OPENING)

    async def opened(opening) -> None:
        async with gate:
            try:
                await opening()
            except (OSError, TimeoutError, ValueError) as failure:
                clients.tally.failed(f"open: {type(failure).__name__}")

    screens = [player.open for player in clients.players]
    screens += [poller.poll for poller in clients.phones + clients.projectors]
    await asyncio.gather(*(opened(opening) for opening in screens))


async def progress(clients: Clients, pool: Pool, start: float, stop_at: float) -> None:
    """A line every PROGRESS_SECONDS: the long wait shows it is alive."""
    tally = clients.tally
    while (now := time.perf_counter()) < stop_at - 0.5:
        await asyncio.sleep(min(PROGRESS_SECONDS, stop_at - now))
        on = {server.number: 0 for server in pool.servers}
        for player in clients.players:
            on[next(s.number for s in pool.servers if s.port == player.port)] += 1
        screens = ", ".join(f"server {number}: {count}" for number, count in on.items())
        acknowledged = {kind: len(keys) for kind, keys in tally.acknowledged.items()}
        print(
            f"  {time.perf_counter() - start:4.0f} s: acknowledged "
            f"{acknowledged.get('play', 0)} plays, {acknowledged.get('point', 0)} pointings, "
            f"{acknowledged.get('report', 0)} reports; {tally.errors} errors, "
            f"{tally.cut_off} cut off; screens on {screens}",
            flush=True,
        )


async def loop_lag(stop_at: float, samples: list[float]) -> None:
    """How late the load generator's event loop wakes a task that slept LAG_SECONDS:
    every time measured at a client includes that much of the client's own delay."""
    while (now := time.perf_counter()) < stop_at:
        await asyncio.sleep(LAG_SECONDS)
        samples.append(time.perf_counter() - now - LAG_SECONDS)


async def kill_at(pool: Pool, start: float, moment: float) -> None:
    await asyncio.sleep(max(0.0, start + moment - time.perf_counter()))
    victim = pool.victim
    print(
        f"  {time.perf_counter() - start:4.0f} s: app server {victim.number} killed (SIGKILL "
        "to its process group); its clients move to the survivor",
        flush=True,
    )
    await asyncio.to_thread(kill, victim)


async def run_load(
    clients: Clients, pool: Pool, seconds: float, seed: int, *, kill_one: bool = True
) -> dict[str, float]:
    """The run: everything at once for ``seconds``, the kill at half time (unless not
    ``kill_one``: a step of the ramp)."""
    from live_room import app_poll_seconds

    await open_all(clients)
    interval = app_poll_seconds()
    rng = random.Random(seed + 1)
    start, cpu = time.perf_counter(), os.times()
    stop_at = start + seconds
    probes: list[float] = []
    lags: list[float] = []
    pollers = clients.phones + clients.projectors
    tasks = [player.run(stop_at) for player in clients.players]
    tasks += [
        poller.keep_polling(start, stop_at, interval, interval * i / len(pollers))
        for i, poller in enumerate(pollers)
    ]
    tasks += [
        table_games(phones, seated, stop_at, random.Random(rng.random()))
        for phones, seated in clients.tables
    ]
    tasks.append(progress(clients, pool, start, stop_at))
    if kill_one:
        tasks.append(kill_at(pool, start, seconds / 2))
    tasks.append(loop_lag(stop_at, lags))
    probe = asyncio.ensure_future(probe_bare(pool.survivor.port, stop_at, probes))
    await asyncio.gather(*tasks)
    ran = time.perf_counter() - start
    # The load generator's own CPU, in cores: what it took from the servers' two.
    used = sum(os.times()[:2]) - sum(cpu[:2])
    # The actions under way as time ran out: answered (or given up) before the count.
    pending = [task for player in clients.players for task in player.tasks if not task.done()]
    if pending:
        await asyncio.wait(pending, timeout=30)
    for player in clients.players:
        await player.actions.close()
    for poller in pollers:
        await poller.actions.close()
    probe_failures = await probe
    clients.tally.errors += probe_failures
    return {
        "seconds": ran,
        "load_generator_cores": used / ran,
        "killed_at": (pool.victim.killed_at or stop_at) - start,
        "probe_p50_ms": percentile(probes, 0.50) * 1000,
        "probe_p99_ms": percentile(probes, 0.99) * 1000,
        "lag_p99_ms": percentile(lags, 0.99) * 1000,
    }


def card_to_table(
    clients: Clients, pool: Pool, *, on_both: bool = False
) -> tuple[list[float], list[float]]:
    """Card to table on the surviving server (see Terms), for the cards played before
    the kill and after it; ``on_both``: on either server (a step of the ramp, no kill)."""
    survivor = pool.survivor.port
    killed_at = pool.victim.killed_at or float("inf")
    players = {player.token: player for player in clients.players}
    before, after = [], []
    for room in clients.rooms:
        for (table, game, card, viewer), seen_at in room.seen.items():
            sent = room.sent.get((table, game, card))
            if sent is None or sent[1] == viewer or (table, game, card) in room.resent_cards:
                continue
            watcher = players[viewer]
            on_survivor = watcher.port_at(sent[0]) == watcher.port_at(seen_at) == survivor
            if not (on_both or on_survivor):
                continue
            (after if sent[0] >= killed_at else before).append(seen_at - sent[0])
    return before, after


def figures(clients: Clients, pool: Pool, run: dict, bare: tuple[float, float],
            stored: Stored, args: argparse.Namespace) -> dict[str, float]:  # fmt: skip
    tally = clients.tally
    before, after = card_to_table(clients, pool)
    waits = before + after
    latencies = tally.latencies
    return {
        "hosted_servers": len(pool.servers),
        "hosted_room_events": args.room_events,
        "hosted_screen_events": args.screen_events,
        "hosted_players": args.players * (args.room_events + args.screen_events),
        "hosted_seconds": round(run["seconds"], 1),
        "hosted_killed_at_s": round(run["killed_at"], 1),
        "hosted_plays_acknowledged": len(tally.acknowledged["play"]),
        "hosted_pointings_acknowledged": len(tally.acknowledged["point"]),
        "hosted_reports_acknowledged": len(tally.acknowledged["report"]),
        "hosted_plays_stored": stored.keys("play"),
        "hosted_pointings_stored": stored.keys("point"),
        "hosted_reports_stored": stored.keys("report"),
        "hosted_games_stored": stored.games,
        "hosted_games_confirmed": stored.confirmed,
        "hosted_resent": sum(len(keys) for keys in tally.resent.values()),
        "hosted_resent_acknowledged": sum(
            len(keys & tally.acknowledged[kind]) for kind, keys in tally.resent.items()
        ),
        "hosted_resent_refused": tally.resent_refused,
        "hosted_lost": stored.lost(tally),
        "hosted_doubled": stored.doubled(tally),
        "hosted_stored_unacknowledged": stored.unacknowledged(tally),
        "hosted_card_to_table_p50_s": round(percentile(waits, 0.50), 3),
        "hosted_card_to_table_p99_s": round(percentile(waits, 0.99), 3),
        "hosted_card_to_table_max_s": round(max(waits, default=0.0), 3),
        "hosted_card_to_table_before_kill_p99_s": round(percentile(before, 0.99), 3),
        "hosted_card_to_table_after_kill_p99_s": round(percentile(after, 0.99), 3),
        "hosted_card_to_table_samples": len(waits),
        "hosted_failover_p50_s": round(percentile(tally.failovers, 0.50), 2),
        "hosted_failover_max_s": round(max(tally.failovers, default=0.0), 2),
        "hosted_screens_moved": len(tally.failovers),
        "hosted_play_p99_ms": round(percentile(latencies["play"], 0.99) * 1000, 1),
        "hosted_report_p99_ms": round(percentile(latencies["report"], 0.99) * 1000, 1),
        "hosted_poll_p99_ms": round(percentile(latencies["poll"], 0.99) * 1000, 1),
        "hosted_bare_rps": round(bare[0], 1),
        "hosted_bare_p99_ms": round(bare[1], 1),
        "hosted_bare_under_load_p99_ms": round(run["probe_p99_ms"], 1),
        "hosted_load_generator_cores": round(run["load_generator_cores"], 2),
        "hosted_load_generator_lag_p99_ms": round(run["lag_p99_ms"], 1),
        "hosted_cut_off": tally.cut_off,
        "hosted_reopened": tally.reopened,
        "hosted_errors": tally.errors,
    }


def print_summary(result: dict[str, float], tally: Tally, args: argparse.Namespace) -> None:
    r = result
    ms = {key: value * 1000 for key, value in result.items() if key.endswith("_s")}
    kinds = ", ".join(f"{kind}: {count}" for kind, count in sorted(tally.error_kinds.items()))
    resent = ", ".join(f"{len(keys)} {kind}" for kind, keys in sorted(tally.resent.items()))
    lines = [
        f"\nhosted load: {args.room_events} room and {args.screen_events} screen events of "
        f"{args.players} players, 2 app servers on one PostgreSQL, {r['hosted_seconds']:.0f} s; "
        f"server 2 killed at {r['hosted_killed_at_s']:.0f} s",
        f"  bare view before the load: {r['hosted_bare_rps']:.1f} req/s on both servers, "
        f"p99 {r['hosted_bare_p99_ms']:.1f} ms; on the survivor under the load: "
        f"p99 {r['hosted_bare_under_load_p99_ms']:.1f} ms",
        *(
            f"  {kind:<10} acknowledged {r[f'hosted_{kind}_acknowledged']:6d}"
            f"   stored {r[f'hosted_{kind}_stored']:6d}"
            for kind in ("plays", "pointings", "reports")
        ),
        f"  games at room tables: {r['hosted_games_stored']} stored, "
        f"{r['hosted_games_confirmed']} confirmed by the second phone",
        f"  re-sent after the kill {r['hosted_resent']} ({resent}; acknowledged "
        f"{r['hosted_resent_acknowledged']}, refused {r['hosted_resent_refused']}); "
        f"lost {r['hosted_lost']}, doubled {r['hosted_doubled']}, "
        f"stored unacknowledged {r['hosted_stored_unacknowledged']}",
        f"  card to table on the survivor: p50 {ms['hosted_card_to_table_p50_s']:.1f} ms, "
        f"p99 {ms['hosted_card_to_table_p99_s']:.1f} ms, "
        f"max {ms['hosted_card_to_table_max_s']:.1f} ms; "
        f"p99 before the kill {ms['hosted_card_to_table_before_kill_p99_s']:.1f} ms, "
        f"after {ms['hosted_card_to_table_after_kill_p99_s']:.1f} ms",
        f"  failover of {r['hosted_screens_moved']} screens: p50 "
        f"{r['hosted_failover_p50_s']:.2f} s, max {r['hosted_failover_max_s']:.2f} s",
        f"  p99: play POST {r['hosted_play_p99_ms']:.1f} ms, report POST "
        f"{r['hosted_report_p99_ms']:.1f} ms, poll {r['hosted_poll_p99_ms']:.1f} ms",
        f"  errors {r['hosted_errors']}"
        + (f" ({kinds})" if kinds else "")
        + f"; cut off by the kill {r['hosted_cut_off']}; sent again on a new connection "
        f"after a live server closed a kept-alive one {r['hosted_reopened']}",
        f"  the load generator used {r['hosted_load_generator_cores']:.2f} of the 2 cores; "
        f"its event loop woke tasks late by up to {r['hosted_load_generator_lag_p99_ms']:.1f}"
        " ms (p99)",
    ]
    print("\n".join(lines))


def ramp(args: argparse.Namespace, pool: Pool) -> dict[str, float]:
    """Each step of the ramp (see Terms): its card to table, and the largest load whose
    99th percentile stayed under RAMP_GOAL_S."""
    from django.db import connections

    found: dict[str, float] = {}
    largest = 0
    for step, players in enumerate(int(n) for n in args.ramp.split(",") if n.strip()):
        events = max(1, players // args.players)
        step_args = argparse.Namespace(
            room_events=0, screen_events=events, players=args.players, seed=args.seed + step
        )
        clients = prepare(step_args, pool)
        connections.close_all()
        print(f"ramp: {events * args.players} players on screens for {args.step_seconds:.0f} s…")
        asyncio.run(run_load(clients, pool, args.step_seconds, args.seed + step, kill_one=False))
        waits, _after = card_to_table(clients, pool, on_both=True)
        p99 = percentile(waits, 0.99)
        played = len(clients.tally.acknowledged["play"])
        print(
            f"ramp: {events * args.players} players: {played} plays acknowledged, card to "
            f"table p50 {percentile(waits, 0.5):.3f} s, p99 {p99:.3f} s "
            f"({len(waits)} samples), {clients.tally.errors} errors",
            flush=True,
        )
        found[f"hosted_ramp_{events * args.players}_card_to_table_p99_s"] = round(p99, 3)
        found[f"hosted_ramp_{events * args.players}_plays_acknowledged"] = played
        if waits and p99 < RAMP_GOAL_S and not clients.tally.errors:
            largest = max(largest, events * args.players)
    found["hosted_largest_load_under_0_3_s"] = largest
    return found


def main() -> None:
    args = parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        raise SystemExit(
            "bench/hosted_load.py needs PostgreSQL: run `make bench-hosted`, or "
            "`.ci/with-postgres .venv/bin/python bench/hosted_load.py`."
        )
    busy = machine_busy()
    if busy is not None:
        print(f"the machine was {busy:.0%} busy before the bench started anything", flush=True)
    # One key for this process (the phones' signed ids) and both servers (docs/DEPLOY.md).
    os.environ.setdefault("DJANGO_SECRET_KEY", secrets.token_urlsafe(50))
    data_dir = setup_django()
    from django.db import connections

    extra = [*(["--workers", str(args.workers)] if args.workers else []),
             *(["--threads", str(args.threads)] if args.threads else [])]  # fmt: skip
    with app_servers(data_dir, 2, extra) as pool:
        stepped = ramp(args, pool) if args.ramp.strip() else {}
        clients = prepare(args, pool)
        connections.close_all()  # the servers own the database during the run
        bare = bare_throughput(pool, args.bare_seconds)
        print(
            f"{len(clients.players)} screens, {len(clients.phones)} phones and "
            f"{len(clients.projectors)} projectors for {args.seconds:.0f} s…",
            flush=True,
        )
        run = asyncio.run(run_load(clients, pool, args.seconds, args.seed))
    stored = count_stored(clients.screen_events, clients.room_events)
    result = figures(clients, pool, run, bare, stored, args)
    result["hosted_machine_busy_before"] = None if busy is None else round(busy, 2)
    result.update(stepped)
    print_summary(result, clients.tally, args)
    print(json.dumps(result))
    # What the measure is for, never a time: a player told "stored" finds it stored, once.
    acknowledged = sum(len(keys) for keys in clients.tally.acknowledged.values())
    if acknowledged == 0 or result["hosted_lost"] or result["hosted_doubled"]:
        sys.exit(1)


if __name__ == "__main__":
    main()
