"""Seating the next round when a round closes: everyone present, by the moves.

Terms:
    move          where a player goes after a round, and why (tournament.rules.movement):
                  up, down, or stay, with the games that decided it.
    returning     a present player who had no seat in the closed round: back from an
                  absence (RETURNING) or new to the event (JOINING); they sit at the lowest
                  table.

Runs inside close_round's transaction (tournament.writes.rounds), which locks the event.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.db import transaction

from tables.models import Table
from tournament.models import Event, Player, PlayerStatus, Round, Seat, SeatReason
from tournament.rules.movement import Move


# Called inside close_round's transaction: no savepoint, so the close's query count stays put.
@transaction.atomic(savepoint=False)
def seat_next_round(
    *,
    event: Event,
    closed: Round,
    moves: dict[str, Move],
    present: Mapping[str, Player] | None = None,
) -> Round:
    """Create the round after ``closed`` and seat everyone present by the moves.

    Players absent or removed since are not seated (their move is not applied); present
    players who had no seat in the closed round return at the lowest table. ``present``
    is the players present now by name, when the caller has read them already.
    """
    tables = {table.number: table for table in Table.objects.filter(event=event)}
    lowest = tables[min(tables)]
    next_round = Round.objects.create(event=event, number=closed.number + 1)
    if present is None:
        present = {p.name: p for p in event.players.filter(status=PlayerStatus.PRESENT)}
    present = dict(present)  # a copy: the seated are taken out of it below
    seats = []
    for name, move in moves.items():
        player = present.pop(name, None)
        if player is None:
            continue  # absent or removed since: not seated, their move is not applied
        seats.append(
            Seat(
                round=next_round,
                player=player,
                table=tables[move.to_table],
                from_table=tables[move.from_table],
                reason=SeatReason(move.reason.value),
                games_won_before=move.games,
                tie_broken=move.tie_broken,
            )
        )
    if present:
        # Present but not seated in the closed round: back from an absence, or new.
        played_before = set(
            Seat.objects.filter(player__in=present.values()).values_list("player_id", flat=True)
        )
        seats.extend(
            Seat(
                round=next_round,
                player=player,
                table=lowest,
                reason=SeatReason.RETURNING if player.pk in played_before else SeatReason.JOINING,
            )
            for player in present.values()
        )
    Seat.objects.bulk_create(seats)
    return next_round
