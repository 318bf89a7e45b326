"""Who won a game, said by the players themselves: at an event with a scoring clause, a
screen table ends a game as it ends a trick, by pointing. The app never names the winner
its tricks would give: a newcomer would learn the table's hidden scoring from it.

Terms:
    scoring clause  a clause that changes who wins a game: today only fewest tricks
                 wins (tournament.rules.cards.Clause.FEWEST_WINS). At an event whose draw
                 may use one, or one of whose tables has one, every screen table names its
                 games' winners itself, those without the clause too, or the step itself
                 would tell which tables have it (tables.reads.game_claims:
                 uses_scoring_clause).
    claim        one player pointing at the player they think won the game. Every change is
                 kept; the latest per player is where they point now. A claim is made at a
                 count of tricks taken (``taken``) and counts only while the game still
                 stands at that count (the organizer may settle a trick after time up).
    claim step   open for a deal once its last trick is taken (practice deals too: they are
                 where players learn it), or once time is up in a round and at least one
                 trick of the game in play was taken (the game is cut off: a game with no
                 trick taken is not counted, so there is nothing to claim).
    agreement    every player of the deal points at the same player: the game goes to them.
    disagreement the players' latest claims name different players.

Standard library only: this module must stay importable without Django.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import TypeVar

P = TypeVar("P", bound=Hashable)


def claim_open(*, over: bool, time_up: bool, taken: int, practice: bool) -> bool:
    """Whether the players of a deal point at its winner now (see Terms: claim step).
    ``over``: every trick is taken; ``time_up``: the round's clock has run out;
    ``taken``: tricks taken so far."""
    if over:
        return True
    return time_up and not practice and taken > 0


def latest_claims(claims: Sequence[tuple[P, P]]) -> dict[P, P]:
    """Where each player points now: ``claims`` are (player, winner) in the order made."""
    latest: dict[P, P] = {}
    for player, winner in claims:
        latest[player] = winner
    return latest


def agreed_winner(latest: Mapping[P, P], pointers: Sequence[P]) -> P | None:
    """Who wins by agreement (see Terms), or None while any of ``pointers`` has not
    pointed or points at someone else."""
    if not pointers or any(player not in latest for player in pointers):
        return None
    winners = {latest[player] for player in pointers}
    return next(iter(winners)) if len(winners) == 1 else None


def claims_disagree(latest: Mapping[P, P]) -> bool:
    """Whether the players' latest claims name more than one player."""
    return len(set(latest.values())) > 1
