"""Where each player sits in the next round.

Terms:
    table    a numbered place where a group of players sits. A higher number is a better
             table. Numbering may have gaps (1, 2, 5): "the next table" is the next one that
             exists, and a table with nobody at it still exists.
    seat     a player's place at a table for one round; only the table matters here.
    round    a timed period of play. A round's result at a table is the number of games
             each player won there.
    game     one deal of Five Tricks, won by one player (see tables.rules.scoring.game_winner).
    order    the table's ranking from tournament.rules.ordering.rank_players: more games first,
             then names alphabetically with accents and case ignored, then exact spelling.
    winners  the first player in the order; the first two at a table of more than four.
    losers   the last player in the order; the last two at a table of more than four.
             A lone player is a winner. Nobody is both a winner and a loser.
    move up / move down
             after a round winners go to the next higher table and losers to the next lower
             one; everybody else stays. Winners at the highest table and losers at the
             lowest table have nowhere to go, so they stay (and a single table never moves).
    tie broken
             alphabetical order, not games, decided where a player goes: someone at the
             same table had the same games and goes to another table. Judged on the
             destination, so a winner at the top table who beat a tied player
             alphabetically is not flagged (both stay), and neither are tied players who
             all stay or all move the same way.
    seating  what a close commits for each player: (from table, to table). From is None for
             a player who joins (present now, not seated this round: the lowest table); to
             is None for one seated this round but not present now (their move is not
             applied). After the last round nobody is seated, so the seating is empty.
    fingerprint
             a digest of a seating. The close page carries the fingerprint of the seating
             it showed; the close is refused only when the seating it would commit has
             another fingerprint, so a report that changes nobody's move never stops it.

Standard library only: this module must stay importable without Django.
"""

import hashlib
import json
from collections import defaultdict
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from enum import Enum, StrEnum
from typing import Final, Literal

from tournament.rules.ordering import rank_players

MOVERS_PER_SIDE: Final = 1
LARGE_TABLE_MOVERS_PER_SIDE: Final = 2
# A table with MORE players than this moves LARGE_TABLE_MOVERS_PER_SIDE each way.
LARGE_TABLE_THRESHOLD: Final = 4

Direction = Literal["up", "down", "stay"]
# A player's seating: (from table, to table); see Terms.
Destination = tuple[int | None, int | None]


class Reason(StrEnum):
    """Why a player sits where they sit next round; the values are stored on seats."""

    MOVES_UP = "moves_up"
    MOVES_DOWN = "moves_down"
    STAYS_AT_TOP = "stays_at_top"
    STAYS_AT_BOTTOM = "stays_at_bottom"
    STAYS = "stays"


class _Group(Enum):
    WINNER = "winner"
    MIDDLE = "middle"
    LOSER = "loser"


@dataclass(frozen=True)
class Move:
    """One player's outcome of a round: where they were, where they go, and why."""

    player: str
    from_table: int
    to_table: int
    games: int
    rank: int
    reason: Reason
    tie_broken: bool

    @property
    def direction(self) -> Direction:
        if self.to_table > self.from_table:
            return "up"
        if self.to_table < self.from_table:
            return "down"
        return "stay"


def movers_per_side(table_size: int) -> int:
    """How many players a table of ``table_size`` sends up, and how many down."""
    if table_size > LARGE_TABLE_THRESHOLD:
        return LARGE_TABLE_MOVERS_PER_SIDE
    return MOVERS_PER_SIDE


def _groups(table_size: int) -> list[_Group]:
    per_side = movers_per_side(table_size)
    winners = min(per_side, table_size)
    # Winners are filled first so a lone player is a winner, never a loser.
    losers = min(per_side, table_size - winners)
    middle = table_size - winners - losers
    return [_Group.WINNER] * winners + [_Group.MIDDLE] * middle + [_Group.LOSER] * losers


def _check_seated_once(tables: Mapping[int, Mapping[str, int]]) -> None:
    seen: dict[str, int] = {}
    for number in sorted(tables):
        for player in tables[number]:
            if player in seen:
                raise ValueError(f"{player!r} is seated at tables {seen[player]} and {number}")
            seen[player] = number


def explain_moves(tables: Mapping[int, Mapping[str, int]]) -> dict[str, Move]:
    """Give every player exactly one Move for the next round.

    ``tables`` maps each existing table number to {player: games won this round}; a table
    with no players still counts as a destination. Raises ValueError when a player sits at
    two tables or has negative games.
    """
    _check_seated_once(tables)
    numbers = sorted(tables)
    moves: dict[str, Move] = {}
    for index, number in enumerate(numbers):
        games = tables[number]
        order = rank_players(games)
        groups = _groups(len(order))
        higher = numbers[index + 1] if index + 1 < len(numbers) else None
        lower = numbers[index - 1] if index > 0 else None

        destinations: list[tuple[str, int, Reason]] = []
        for player, group in zip(order, groups, strict=True):
            if group is _Group.WINNER:
                to_table, reason = (
                    (number, Reason.STAYS_AT_TOP) if higher is None else (higher, Reason.MOVES_UP)
                )
            elif group is _Group.LOSER:
                to_table, reason = (
                    (number, Reason.STAYS_AT_BOTTOM)
                    if lower is None
                    else (lower, Reason.MOVES_DOWN)
                )
            else:
                to_table, reason = number, Reason.STAYS
            destinations.append((player, to_table, reason))

        tables_by_games: defaultdict[int, set[int]] = defaultdict(set)
        for player, to_table, _reason in destinations:
            tables_by_games[games[player]].add(to_table)

        for rank, (player, to_table, reason) in enumerate(destinations, start=1):
            moves[player] = Move(
                player=player,
                from_table=number,
                to_table=to_table,
                games=games[player],
                rank=rank,
                reason=reason,
                tie_broken=len(tables_by_games[games[player]]) > 1,
            )
    return moves


def plan_moves(tables: Mapping[int, Mapping[str, int]]) -> dict[str, int]:
    """Return each player's table for the next round (see explain_moves for the rules)."""
    return {player: move.to_table for player, move in explain_moves(tables).items()}


def planned_seating(
    tables: Mapping[int, Mapping[str, int]],
    *,
    present: Collection[str],
    seats_next_round: bool = True,
) -> dict[str, Destination]:
    """Where the close sends each player (see Terms: seating), from plan_moves.

    ``present`` names the players present now; a present player seated at none of
    ``tables`` joins the lowest table.
    """
    if not seats_next_round:
        return {}
    seated_at = {player: number for number, games in tables.items() for player in games}
    seating: dict[str, Destination] = {
        player: (seated_at[player], to_table if player in present else None)
        for player, to_table in plan_moves(tables).items()
    }
    lowest = min(tables, default=None)
    for player in present:
        if player not in seated_at:
            seating[player] = (None, lowest)
    return seating


def encode_seating(seating: Mapping[str, Destination]) -> str:
    """The seating as canonical JSON text: the same seating always gives the same text."""
    return json.dumps(
        {player: list(seating[player]) for player in sorted(seating)},
        ensure_ascii=False,
        separators=(",", ":"),
    )


def decode_seating(text: str) -> dict[str, Destination] | None:
    """The seating encode_seating wrote, or None when ``text`` is not one."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # not JSON, or nested deeper than the parser goes
        return None
    if not isinstance(data, dict):
        return None
    seating: dict[str, Destination] = {}
    for player, destination in data.items():
        if not (
            isinstance(destination, list)
            and len(destination) == 2
            and all(
                table is None or (isinstance(table, int) and not isinstance(table, bool))
                for table in destination
            )
        ):
            return None
        seating[player] = (destination[0], destination[1])
    return seating


def seating_fingerprint(seating: Mapping[str, Destination]) -> str:
    """A digest of the seating (see Terms: fingerprint); 32 hexadecimal digits."""
    return hashlib.sha256(encode_seating(seating).encode()).hexdigest()[:32]


def changed_seating(
    shown: Mapping[str, Destination], now: Mapping[str, Destination]
) -> dict[str, Destination | None]:
    """The players whose seating differs between ``shown`` and ``now``, with what was
    shown for each (None for a player the shown seating did not have)."""
    return {
        player: shown.get(player)
        for player in sorted(shown.keys() | now.keys())
        if shown.get(player) != now.get(player)
    }
