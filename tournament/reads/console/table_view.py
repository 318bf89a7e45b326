"""One table of the console in one round: its players, their games, and every report.

Terms:
    table view     one table in one round: its players, the games they won, and every
                   game reported there with the phones' reports behind it.
    labelled report
                   a report of a game, with the label that tells it from the game's other
                   reports: its place in the order they arrived, its time and its winner
                   ("second report (12:03:58): Bob").

The round shown by default is the console's results round, else its seating round
(tournament.reads.console.page defines both). A constant number of queries.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Prefetch
from django.utils.translation import gettext as _

from tables.models import Game, GameReport, GameStatus, Table
from tables.rules.variants import variant_label
from tournament.models import Event, Round, RoundStatus, Seat
from tournament.reads.console.page import seating_and_results
from tournament.rules.ordering import name_key


def labelled_reports(reports: Iterable[GameReport]) -> list[tuple[GameReport, str]]:
    """The reports of one game in the order they arrived, each with the label that tells
    it from the others ("second report (12:03:58): Bob"); their winners must be loaded."""
    arrived = sorted(reports, key=lambda report: (report.received_at, report.pk))
    return [(report, report.label(place)) for place, report in enumerate(arrived, 1)]


@dataclass
class GameLine:
    game: Game
    reports: list[GameReport]

    @property
    def labelled_reports(self) -> list[tuple[GameReport, str]]:
        return labelled_reports(self.reports)

    @property
    def needs_attention(self) -> bool:
        return self.game.status in (GameStatus.DISPUTED, GameStatus.UNCONFIRMED)


@dataclass
class TableView:
    """One table in one round (None before the table plan exists)."""

    table: Table
    variant_label: str
    round_: Round | None
    rounds: list[Round]  # every round that started, for the links between them
    players: list[tuple[Seat, int]]  # seat, games won in the round
    games: list[GameLine]
    table_numbers: list[int]

    @property
    def possible_winners(self) -> list:
        """Who may win a disputed game here: the seated players by name, as the close page
        offers them, so a dispute is settled with the same buttons on both pages."""
        return sorted((seat.player for seat, _won in self.players), key=lambda p: name_key(p.name))

    @property
    def can_add(self) -> bool:
        return self.round_ is not None and self.round_.status == RoundStatus.OPEN


def build_table_view(event: Event, table: Table, *, round_number: int | None = None) -> TableView:
    """The table in round_number, else in the results round (or the seating round).

    Raises Round.DoesNotExist when round_number names no round of the event.
    """
    rounds = list(event.rounds.order_by("number"))
    by_number = {r.number: r for r in rounds}
    round_: Round | None
    if round_number is not None:
        if round_number not in by_number:
            raise Round.DoesNotExist(round_number)
        round_ = by_number[round_number]
    else:
        seating_round, results = seating_and_results(
            event,
            by_number.get(event.round_number),
            next((r for r in rounds if r.status == RoundStatus.PLANNED), None),
        )
        round_ = results or seating_round
    seats: list[Seat] = []
    games: list[GameLine] = []
    wins: Counter[int] = Counter()
    if round_ is not None:
        seats = sorted(
            round_.seats.filter(table=table).select_related("player", "from_table"),
            key=lambda s: name_key(s.player.name),
        )
        for game in (
            Game.objects.filter(round=round_, table=table)
            .select_related("winner")
            .prefetch_related(
                Prefetch("reports", queryset=GameReport.objects.select_related("winner"))
            )
            .order_by("number")
        ):
            games.append(GameLine(game, list(game.reports.all())))
            if game.status != GameStatus.DISPUTED and game.winner_id:
                wins[game.winner_id] += 1
    return TableView(
        table=table,
        variant_label=variant_label(table.variant, _),
        round_=round_,
        rounds=[r for r in rounds if r.status != RoundStatus.PLANNED],
        players=[(seat, wins.get(seat.player_id, 0)) for seat in seats],
        games=games,
        table_numbers=list(event.tables.order_by("number").values_list("number", flat=True)),
    )
