"""What the debrief shows beyond the ladder: disputes, clashes and paths, in few queries.

Terms:
    disputed game  a game that was ever disputed: its phones named different winners
                   (even if one phone later agreed), it is disputed now, or the organizer
                   settled it. Counted once per game, per table-round.
    home rules, table-round, clash
                   see tournament.clash.
    path           a player's table round by round (tournament.charts.PlayerPath).
    flow           how many players went from each table to each table between two
                   consecutive rounds.

Five queries whatever the number of players: tables, seats, games, reports, corrections.
Nothing here names a table's variant: the clash kinds say which difference met, not who
played what, so every screen built from this is safe before the reveal.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tables.models import CorrectionAction, Game, GameCorrection, GameReport, GameStatus, Table
from tournament.charts import GridCell, PlayerPath
from tournament.clash import TableRound, clash_kind, clash_sentence
from tournament.models import Event, RoundStatus, Seat
from tournament.ordering import name_key


@dataclass(frozen=True)
class Debrief:
    tables: list[int]
    rounds: list[int]
    cells: dict[tuple[int, int], TableRound]
    paths: list[PlayerPath]
    flows: dict[tuple[int, int, int], int]

    @property
    def sentence(self) -> str:
        return clash_sentence(self.cells.values(), _, ngettext)

    def grid_cells(self) -> dict[tuple[int, int], GridCell]:
        return {key: GridCell(cell.disputes, cell.kind) for key, cell in self.cells.items()}

    @property
    def total_disputes(self) -> int:
        return sum(cell.disputes for cell in self.cells.values())


def disputed_games(event: Event) -> set[tuple[int, int, int]]:
    """(table number, round number, game number) of every game ever disputed."""
    keys: set[tuple[int, int, int]] = set(
        Game.objects.filter(
            round__event=event, status__in=[GameStatus.DISPUTED, GameStatus.SETTLED]
        ).values_list("table__number", "round__number", "number")
    )
    winners: dict[tuple[int, int, int], set[int]] = defaultdict(set)
    for table, round_, number, winner in GameReport.objects.filter(round__event=event).values_list(
        "table__number", "round__number", "game_number", "winner_id"
    ):
        winners[(table, round_, number)].add(winner)
    keys.update(key for key, named in winners.items() if len(named) > 1)
    keys.update(
        GameCorrection.objects.filter(
            round__event=event, action=CorrectionAction.SETTLED
        ).values_list("table__number", "round__number", "game_number")
    )
    return keys


def build_debrief(event: Event) -> Debrief:
    variants = {table.number: table.variant for table in Table.objects.filter(event=event)}
    seats = list(
        # A round planned but never played (the debrief began early) has no path yet.
        Seat.objects.filter(round__event=event)
        .exclude(round__status=RoundStatus.PLANNED)
        .values_list("round__number", "player_id", "player__name", "table__number")
    )
    rounds = sorted({number for number, *_rest in seats})
    home = {player: table for number, player, _name, table in seats if number == 1}
    seated: dict[tuple[int, int], list[int]] = defaultdict(list)
    by_player: dict[int, dict[int, int]] = defaultdict(dict)
    names: dict[int, str] = {}
    for number, player, name, table in seats:
        seated[(table, number)].append(player)
        by_player[player][number] = table
        names[player] = name
    disputes = Counter((table, round_) for table, round_, _number in disputed_games(event))
    cells = {
        (table, number): TableRound(
            table,
            number,
            clash_kind(variants[home[p]] for p in players if p in home),
            disputes[(table, number)],
        )
        for (table, number), players in seated.items()
    }
    paths = sorted(
        (
            PlayerPath(names[player], tuple(tables.get(number) for number in rounds))
            for player, tables in by_player.items()
        ),
        key=lambda path: name_key(path.name),
    )
    flows: Counter[tuple[int, int, int]] = Counter()
    for tables in by_player.values():
        for number in rounds:
            if number in tables and number + 1 in tables:
                flows[(number, tables[number], tables[number + 1])] += 1
    return Debrief(sorted(variants), rounds, cells, paths, dict(flows))
