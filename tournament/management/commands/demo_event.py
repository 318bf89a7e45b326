"""Create a rehearsal event and play its rounds, so every screen has data to rehearse on.

Everything goes through the functions the screens use: the roster through add_players,
the table plan through seat_players, phases through advance_phase, games through
report_game exactly as table phones and players' phones send them (client keys, second
reports that confirm, a few that dispute), one dispute settled by the organizer, an
absent player who comes back, and each round closed with close_round.

The event is left *between rounds after the last round*: the projector shows the final
moves and standings, and the facilitator can rehearse the end of an event (a late report
to accept or drop, undoing the last close, correcting a game, the debrief and the reveal).
The same seed gives the same event.
"""

from __future__ import annotations

import random
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from tables.models import GameStatus, ReportSource, Table
from tables.rules.deal import tricks_per_game
from tables.writes.corrections import settle_game
from tables.writes.reporting import Outcome, report_game
from tournament.models import DifferenceSetChoice, Event, Phase, Player, PlayerStatus, Round
from tournament.rules.table_plan import suggest_table_plan
from tournament.writes.rounds import advance_phase, close_round
from tournament.writes.seating import add_players, seat_players, set_player_status
from tournament.writes.signin import DEFAULT_ORGANIZER, ensure_organizer

FIRST_NAMES = [
    "Zoë", "Émile", "José", "Chloé", "Søren", "Anaïs", "Björn", "Łukasz", "Inès", "Noémie",
    "François", "Aurélie", "Jürgen", "Núria", "Dóra", "Ana", "Ben", "Cleo", "Dev", "Eva",
    "Finn", "Grace", "Hugo", "Ida", "Jonas", "Kai", "Lena", "Milo", "Nora", "Omar", "Pia",
    "Quinn", "Rosa", "Sam", "Tara", "Umar", "Vera", "Wen", "Xavi", "Yara", "Zane", "Amir",
    "Bea", "Carlos", "Dana", "Elif", "Femi", "Gita", "Hana", "Ivo", "Jade", "Kofi", "Lior",
    "Maya", "Nils", "Olga", "Priya", "Rafael", "Sofia", "Theo",
]  # fmt: skip
LAST_INITIALS = "ABCDEFGHIJKLMNOPRSTUVWZ"
MAX_PLAYERS = 500
MAX_ROUNDS = 20


def rehearsal_names(count: int, seed: int) -> list[str]:
    """`count` distinct names such as "Zoë K.", the same for the same seed."""
    every = [f"{first} {initial}." for first in FIRST_NAMES for initial in LAST_INITIALS]
    return random.Random(seed).sample(every, count)


class Command(BaseCommand):
    help = "Create a rehearsal event whose rounds are already played (same seed, same event)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, default=24)
        parser.add_argument("--rounds", type=int, default=3)
        parser.add_argument("--seed", type=int, default=7)
        parser.add_argument(
            "--differences",
            choices=[choice for choice in DifferenceSetChoice.values if choice != "custom"],
            default=DifferenceSetChoice.CLASSIC.value,
            help="Which hidden differences the tables draw from (tables.rules.variants).",
        )
        parser.add_argument(
            "--owner",
            default=DEFAULT_ORGANIZER,
            help="Username of the organizer (created if missing).",
        )

    def handle(self, *args, **options) -> None:
        players, rounds, seed = options["players"], options["rounds"], options["seed"]
        if not 3 <= players <= MAX_PLAYERS:
            raise CommandError(f"--players must be between 3 and {MAX_PLAYERS}.")
        if not 1 <= rounds <= MAX_ROUNDS:
            raise CommandError(f"--rounds must be between 1 and {MAX_ROUNDS}.")
        if not 0 <= seed < 1_000_000:
            raise CommandError("--seed must be between 0 and 999999.")
        owner, _created = ensure_organizer(options["owner"])
        rehearsal = Rehearsal(
            owner=owner,
            players=players,
            rounds=rounds,
            seed=seed,
            out=self,
            differences=options["differences"],
        )
        event = rehearsal.run()
        self.stdout.write(
            self.style.SUCCESS(
                f"Rehearsal event “{event.name}” (id {event.pk}) is ready, between rounds "
                f"after round {event.round_number}: open the console to rehearse the debrief."
            )
        )


class Rehearsal:
    def __init__(
        self,
        *,
        owner,
        players: int,
        rounds: int,
        seed: int,
        out: Command,
        differences: str = DifferenceSetChoice.CLASSIC.value,
    ) -> None:
        self.owner = owner
        self.differences = differences
        self.player_count = players
        self.rounds = rounds
        self.seed = seed
        self.out = out
        self.rng = random.Random(seed)
        self.key_prefix = f"demo-{seed}-{random.Random().getrandbits(32):08x}"

    def say(self, message: str) -> None:
        self.out.stdout.write(message)
        self.out.stdout.flush()

    def run(self) -> Event:
        with transaction.atomic():
            event = Event.objects.create(
                owner=self.owner,
                name=f"Rehearsal · {self.player_count} players · seed {self.seed}",
                seed=self.seed,
                rounds_planned=self.rounds,
                difference_set=self.differences,
                is_rehearsal=True,
            )
            add_players(event=event, names=rehearsal_names(self.player_count, self.seed))
            plan = suggest_table_plan(self.player_count)
            assert plan is not None  # handle() refused fewer than 3 players
            seat_players(event=event, table_count=plan.table_count)
        self.say(
            f"Created “{event.name}”: {self.player_count} players at {plan.table_count} tables."
        )
        # A hidden skill per player makes the moves look like a tournament, not noise.
        self.skill = {p.pk: self.rng.uniform(0.5, 2.0) for p in Player.objects.filter(event=event)}
        while event.phase != Phase.ROUND:
            event = advance_phase(event=event)
        absent: Player | None = None
        for number in range(1, self.rounds + 1):
            round_ = Round.objects.get(event=event, number=number)
            summary = self.play(event, round_)
            moved = self.close(event, round_)
            if number < self.rounds:
                self.say(f"Round {number}: {summary}; {moved} players change tables.")
            else:
                self.say(f"Round {number} (the last): {summary}; final results recorded.")
            event.refresh_from_db()
            if number == self.rounds:
                self.late_report(event, round_)
                break
            if number == 1 and self.player_count >= 8:
                absent = self.pick_player(event)
                set_player_status(player=absent, status=PlayerStatus.ABSENT)
                self.say(f"  {absent.name} is absent for round 2.")
            elif absent is not None:
                set_player_status(player=absent, status=PlayerStatus.PRESENT)
                self.say(f"  {absent.name} is back: lowest table in round {number + 1}.")
                absent = None
            event = advance_phase(event=event)
        return event

    def pick_player(self, event: Event) -> Player:
        planned = Round.objects.get(event=event, number=event.round_number + 1)
        seat = self.rng.choice(list(planned.seats.select_related("player").order_by("pk")))
        return seat.player

    def seated(self, round_: Round) -> dict[Table, list[Player]]:
        by_table: dict[Table, list[Player]] = {}
        for seat in round_.seats.select_related("table", "player").order_by("table__number"):
            by_table.setdefault(seat.table, []).append(seat.player)
        return by_table

    def winner(self, players: list[Player]) -> Player:
        return self.rng.choices(players, weights=[self.skill[p.pk] for p in players])[0]

    def play(self, event: Event, round_: Round) -> str:
        games = disputed = 0
        first_dispute = None
        for table, players in self.seated(round_).items():
            players.sort(key=lambda p: p.pk)
            count = self.rng.randint(3, 6)
            for game_number in range(1, count + 1):
                key = f"{self.key_prefix}-r{round_.number}-t{table.number}-g{game_number}"
                last = game_number == count
                winner: Player | None = self.winner(players)
                sent: dict[str, Any]  # report_game's arguments: the winner, or the tricks
                if last and self.rng.random() < 0.5:
                    # The clock cut this game off: the phone sends tricks taken so far.
                    sent = {"tricks": self.tricks_so_far(players), "finished": False}
                else:
                    sent = {"winner": winner}
                first = report_game(
                    table=table,
                    round_number=round_.number,
                    client_key=f"{key}-a",
                    game_number=game_number,
                    **sent,
                )
                assert first.game is not None  # the first report of a game makes it
                winner = first.game.winner
                games += 1
                roll = self.rng.random()
                if roll < 0.08 and len(players) > 1:
                    other = self.rng.choice([p for p in players if p != winner])
                    second = report_game(
                        table=table,
                        round_number=round_.number,
                        client_key=f"{key}-b",
                        winner=other,
                        game_number=game_number,
                        source=ReportSource.PLAYER,
                    )
                    if second.outcome == Outcome.DISPUTED:
                        disputed += 1
                        first_dispute = first_dispute or second.game
                elif roll < 0.65:
                    report_game(
                        table=table,
                        round_number=round_.number,
                        client_key=f"{key}-b",
                        winner=winner,
                        game_number=game_number,
                        source=ReportSource.PLAYER,
                    )
        settled = 0
        if first_dispute is not None:
            first_dispute.refresh_from_db()
            if first_dispute.status == GameStatus.DISPUTED:
                players = [r.winner for r in first_dispute.reports.select_related("winner")]
                settle_game(game=first_dispute, winner=players[0], by=self.owner)
                settled = 1
        return (
            f"{games} games at {len(self.seated(round_))} tables "
            f"({disputed} disputed, {settled} settled by the organizer)"
        )

    def tricks_so_far(self, players: list[Player]) -> dict[Player, int]:
        # A game the clock cut off: short of the tricks a finished one has at this size.
        played = self.rng.randint(1, max(tricks_per_game(len(players)) - 1, 1))
        tricks = dict.fromkeys(players, 0)
        for _ in range(played):
            tricks[self.winner(players)] += 1
        return tricks

    def close(self, event: Event, round_: Round) -> int:
        event.refresh_from_db()
        moves = close_round(round_=round_, by=self.owner)
        return sum(1 for move in moves.values() if move.to_table != move.from_table)

    def late_report(self, event: Event, round_: Round) -> None:
        """A phone that reports after the last close: something to accept or drop."""
        table, players = next(iter(self.seated(round_).items()))
        report_game(
            table=table,
            round_number=round_.number,
            client_key=f"{self.key_prefix}-late",
            winner=players[0],
        )
        self.say(f"  A late report from table {table.number} waits for the organizer.")
