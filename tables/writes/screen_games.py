"""A screen table's game counted: the deal that ends becomes the table's next Game.

Terms:
    count     a deal that ends becomes the table's next game (tables.models.Game), never
              reported by a phone. Played out, it is a finished game; cut off (the round
              closed, or the organizer ended it) with at least one trick taken, it counts
              by tricks so far, as at a real table; with none it is not counted, and a
              practice deal never is.
    winner    by default tables.rules.scoring's: most tricks (fewest at a fewest-wins
              table), ties in the one order of names; the game is CONFIRMED. At an event
              with a scoring clause a game the table claimed goes to the player its
              players agreed on (CONFIRMED), or the one the organizer named (SETTLED),
              never to the one its tricks would give (tables.writes.game_claims).

The caller holds the event's lock (Event.objects.lock) and bumps the table's version.
"""

from __future__ import annotations

from datetime import datetime

from tables.models import Deal, DealEnd, Game, GameStatus
from tables.rules import screen_play as rules
from tables.rules.scoring import game_winner
from tournament.models import Player, Round

SCREENS_REPORTED_BY = "screens"


def end_deal(
    *,
    round_: Round,
    deal: Deal,
    game: rules.Game[int],
    end: str,
    now: datetime,
    winner_id: int | None = None,
    settled: bool = False,
) -> Game | None:
    """End ``deal`` and count it (see Terms): the Game it made, or None. ``winner_id``
    is the player the table agreed on, or the organizer named (``settled``)."""
    deal.ended_at, deal.end = now, end
    if deal.practice or not game.taken:
        if end != DealEnd.PLAYED_OUT:
            deal.end = DealEnd.ABANDONED
        deal.save(update_fields=["ended_at", "end"])
        return None
    table = deal.table
    if winner_id is None:
        names = dict(Player.objects.filter(pk__in=game.tricks).values_list("pk", "name"))
        # The winner by names (ties go by the one order of names); kept by player id, as
        # every report's tricks are (tables.models.Game.tricks).
        by_name = {names[player]: count for player, count in game.tricks.items()}
        winner_name = game_winner(by_name, fewest_wins=table.fewest_wins)
        winner_id = next(player for player, name in names.items() if name == winner_name)
    tricks = {str(player): count for player, count in game.tricks.items()}
    number = (
        Game.objects.filter(round=round_, table=table)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
        or 0
    ) + 1
    recorded = Game.objects.create(
        round=round_,
        table=table,
        number=number,
        winner_id=winner_id,
        tricks=tricks,
        finished=game.over,
        status=GameStatus.SETTLED if settled else GameStatus.CONFIRMED,
        reported_by=SCREENS_REPORTED_BY,
    )
    deal.game = recorded
    deal.save(update_fields=["ended_at", "end", "game"])
    return recorded
