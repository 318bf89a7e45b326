"""The close check: what closing a round would do, laid out per table for the organizer.

Terms:
    close check    what closing a round would do, laid out per table for the organizer to
                   check: results and moves, disputes to settle, and a note for each player
                   who is not present any more (see tournament.reads.close_preview: not
                   present).
    move block     one table's results this round, best first, with where each player goes
                   and how many players the table will have next round.
    absent note    what happens to a player who played the round but is absent or removed
                   now: their games count, their own move is not applied.
    shown          the seating the organizer was shown when they last confirmed a close
                   that was refused because the moves had changed (tournament.writes.rounds:
                   MovesChanged). Until the round closes, each move that differs from it is
                   marked "Changed", with what it was, in words.

tournament.reads.close_preview.preview_close reads the round; this lays it out.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.utils.translation import gettext as _

from tables.models import Game, Table
from tournament.models import Event, Player, Round, SeatReason
from tournament.reads.close_preview import ClosePreview, preview_close
from tournament.rules.movement import Destination, Move, changed_seating
from tournament.rules.ordering import name_key
from tournament.rules.table_plan import size_problems


@dataclass(frozen=True)
class MoveLine:
    move: Move
    label: str
    not_present: bool
    was: str | None = None  # what the organizer was shown, in words, when this move changed


@dataclass
class MoveBlock:
    """One table's results this round, best first, with where each player goes."""

    table: Table
    moves: list[MoveLine]
    next_size: int


@dataclass
class Dispute:
    game: Game
    players: list[Player]  # who was seated at the game's table: the possible winners

    @property
    def report_labels(self) -> list[str]:
        return self.game.report_labels()


@dataclass
class CloseCheck:
    preview: ClosePreview
    blocks: list[MoveBlock]
    disputes: list[Dispute]
    absent_notes: list[str]
    changed: int = 0  # players whose seating differs from the one shown (see Terms: shown)

    @property
    def unconfirmed_tables(self) -> list[int]:
        return sorted({game.table.number for game in self.preview.unconfirmed})

    @property
    def next_size_problems(self) -> list[tuple[int, int]]:
        if not self.preview.seats_next_round:
            return []
        return size_problems(self.preview.next_sizes)


def absent_note(name: str, move: Move, *, removed: bool, seats_next_round: bool) -> str:
    """What happens to a player who played this round but is not present now.

    The round's results stand (their games count, for them and for the others' moves);
    only their own move is not applied.
    """
    values = {"name": name, "table": move.to_table}
    if not seats_next_round:
        if removed:
            text = _("%(name)s was removed from the roster: their games this round count.")
        else:
            text = _("%(name)s is absent: their games this round count.")
    elif removed:
        if move.direction == "up":
            text = _(
                "%(name)s was removed from the roster: their games this round count, but their "
                "move up to table %(table)s is not applied. If put back, they start at the "
                "lowest table."
            )
        elif move.direction == "down":
            text = _(
                "%(name)s was removed from the roster: their games this round count, but their "
                "move down to table %(table)s is not applied. If put back, they start at the "
                "lowest table."
            )
        else:
            text = _(
                "%(name)s was removed from the roster: their games this round count, but they "
                "are not seated at table %(table)s next round. If put back, they start at the "
                "lowest table."
            )
    elif move.direction == "up":
        text = _(
            "%(name)s is absent: their games this round count, but their move up to table "
            "%(table)s is not applied. When back, they start at the lowest table."
        )
    elif move.direction == "down":
        text = _(
            "%(name)s is absent: their games this round count, but their move down to table "
            "%(table)s is not applied. When back, they start at the lowest table."
        )
    else:
        text = _(
            "%(name)s is absent: their games this round count, but they are not seated at "
            "table %(table)s next round. When back, they start at the lowest table."
        )
    return text % values


def destination_text(destination: Destination | None) -> str:
    """Where a seating sends a player, in words (None: the seating did not have them)."""
    if destination is None:
        return _("not listed")
    from_table, to_table = destination
    if to_table is None:
        return _("not seated next round")
    if from_table is None:
        text = _("joining table %(table)s")
    elif to_table > from_table:
        text = _("up to table %(table)s")
    elif to_table < from_table:
        text = _("down to table %(table)s")
    else:
        text = _("staying at table %(table)s")
    return text % {"table": to_table}


def build_close_check(
    event: Event, round_: Round, *, shown: dict[str, Destination] | None = None
) -> CloseCheck:
    """The close check; ``shown`` is the seating to mark changes against (see Terms)."""
    preview = preview_close(round_)
    changes = changed_seating(shown, preview.seating) if shown is not None else {}
    tables = {t.number: t for t in event.tables.all()}
    reasons = dict(SeatReason.choices)
    next_sizes = preview.next_sizes
    blocks = [
        MoveBlock(
            table=tables[table_number],
            moves=[
                MoveLine(
                    move=move,
                    label=str(reasons.get(move.reason.value, "")),
                    not_present=move.player in preview.not_present,
                    was=(
                        destination_text(changes[move.player]) if move.player in changes else None
                    ),
                )
                for move in moves
            ],
            next_size=next_sizes.get(table_number, 0),
        )
        for table_number, moves in preview.moves_by_table.items()
    ]
    seated_by_table: dict[int, list[Player]] = defaultdict(list)
    for seat in round_.seats.select_related("player"):
        seated_by_table[seat.table_id].append(seat.player)
    for players in seated_by_table.values():
        players.sort(key=lambda p: name_key(p.name))
    return CloseCheck(
        preview=preview,
        blocks=blocks,
        disputes=[
            Dispute(game=game, players=seated_by_table.get(game.table_id, []))
            for game in preview.disputed
        ],
        absent_notes=[
            absent_note(
                name,
                preview.moves[name],
                removed=name in preview.removed,
                seats_next_round=preview.seats_next_round,
            )
            for name in sorted(preview.not_present, key=name_key)
        ],
        changed=len(changes),
    )
