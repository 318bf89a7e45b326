"""What closing a round would do, read before the organizer confirms it.

Terms:
    round        a timed period of play; closing it commits its results and the next
                 round's seating (tournament.writes.rounds.close_round).
    table        a numbered card table; after a round its best player(s) move up to the
                 next higher-numbered table and its worst move down (tournament.rules.movement).
    seat         who sits at which table in a round.
    preview      the standings, the moves with their reasons, the games that need the
                 organizer (disputed or reported once), late reports, and who will not be
                 seated next round: all that the close page shows, read without writing.
    not present  seated in the round but absent or removed now: their games count, their
                 move is not applied.
    returning    present now but not seated in the round: they join the lowest table.
    seating      who the close sends from which table to which, presence counted; its
                 fingerprint goes in the close form (tournament.rules.movement: seating,
                 fingerprint).

A read model: it never writes, and the write bridges never need it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from tables.models import KEPT_FOR_THE_ORGANIZER, Game, GameReport, GameStatus
from tables.reads.screen_play import games_in_play_won
from tournament.models import Event, PlayerStatus, Round, RoundStatus
from tournament.rules.movement import (
    Destination,
    Move,
    encode_seating,
    explain_moves,
    planned_seating,
    seating_fingerprint,
)
from tournament.rules.ordering import name_key


@dataclass(frozen=True)
class ClosePreview:
    """What closing a round would do, for the organizer to check before confirming.

    ``version`` is the event's version when the preview was made (the live page's ETag).
    ``fingerprint`` is the seating's; passing it back to close_round refuses the close
    only if the seating it would commit is another one.
    """

    round_: Round
    standings: dict[int, dict[str, int]]
    moves: dict[str, Move]
    games_needing_attention: list[Game]
    late_reports: list[GameReport]
    version: int
    not_present: frozenset[str] = frozenset()  # seated this round, absent or removed now
    removed: frozenset[str] = frozenset()  # the part of not_present removed from the roster
    returning: tuple[str, ...] = ()  # present now, not seated this round: join the lowest
    seats_next_round: bool = True  # False after the last round: nobody moves
    seating: dict[str, Destination] = field(default_factory=dict)  # {} after the last round

    @property
    def fingerprint(self) -> str:
        return seating_fingerprint(self.seating)

    @property
    def seating_text(self) -> str:
        """The seating as the close form carries it, to mark what changed if it does."""
        return encode_seating(self.seating)

    @property
    def moves_by_table(self) -> dict[int, list[Move]]:
        grouped: dict[int, list[Move]] = {number: [] for number in sorted(self.standings)}
        for move in sorted(self.moves.values(), key=lambda m: (m.from_table, m.rank)):
            grouped[move.from_table].append(move)
        return grouped

    @property
    def next_sizes(self) -> dict[int, int]:
        """Players at each table next round, once absent players and returners count."""
        sizes = Counter(
            move.to_table for name, move in self.moves.items() if name not in self.not_present
        )
        if self.returning and self.standings:
            sizes[min(self.standings)] += len(self.returning)
        return {number: sizes.get(number, 0) for number in sorted(self.standings)}

    @property
    def disputed(self) -> list[Game]:
        return [g for g in self.games_needing_attention if g.status == GameStatus.DISPUTED]

    @property
    def unconfirmed(self) -> list[Game]:
        return [g for g in self.games_needing_attention if g.status == GameStatus.UNCONFIRMED]

    @property
    def tables_without_games(self) -> list[int]:
        """Tables whose players all have 0 games and no game of theirs is disputed (a
        disputed game was reported: it is listed as a dispute instead)."""
        disputed_at = {game.table.number for game in self.disputed}
        return [
            number
            for number, games in sorted(self.standings.items())
            if games and not any(games.values()) and number not in disputed_at
        ]


def preview_close(round_: Round) -> ClosePreview:
    """Everything the organizer checks before closing a round; a constant number of queries."""
    event = Event.objects.get(pk=round_.event_id)
    round_.event = event
    standings = round_.games_won_by_table()
    if event.on_screens and round_.status == RoundStatus.OPEN:
        # The screen tables' games in play count at the close by tricks so far: the
        # preview counts them the same way, so the moves it shows are the close's.
        for number, winner in games_in_play_won(round_.pk).items():
            standings[number][winner] = standings[number].get(winner, 0) + 1
    seated = {name for games in standings.values() for name in games}
    status_of = dict(event.players.values_list("name", "status"))
    present = {name for name, status in status_of.items() if status == PlayerStatus.PRESENT}
    not_present = seated - present
    seats_next_round = round_.number < event.rounds_planned
    return ClosePreview(
        round_=round_,
        standings=standings,
        moves=explain_moves(standings),
        games_needing_attention=list(
            round_.games.needing_attention()
            .select_related("table", "winner")
            .prefetch_related("reports__winner")
        ),
        late_reports=list(
            round_.reports.filter(state__in=KEPT_FOR_THE_ORGANIZER).select_related(
                "table", "winner"
            )
        ),
        version=event.version,
        not_present=frozenset(not_present),
        removed=frozenset(n for n in not_present if status_of.get(n) == PlayerStatus.REMOVED),
        returning=tuple(sorted(present - seated, key=name_key)),
        seats_next_round=seats_next_round,
        seating=planned_seating(standings, present=present, seats_next_round=seats_next_round),
    )
