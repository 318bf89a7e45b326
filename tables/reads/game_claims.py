"""What screens read of the players' pointing at who won a game (tables.rules.game_claims):
whether the event asks it at all, and where a table's players point now. Reads only.

Terms:
    scoring-clause event  an event that uses a scoring clause (``uses_scoring_clause``):
                 its draw may give a table one, or one of its tables has one. There every
                 screen table's players say who won each game (the claim step), and the
                 pages every table shares leave the winner to the rule sheets
                 (tables.reads.kit: event_guide).
    claim view   a deal's claim step as a screen shows it: a choice per player of the deal,
                 in seat order, with who points at them; no choice is marked as the one its
                 tricks would give. Whether the players disagree, since when the step has
                 been open, and whether it stalled.
    opened       when the claim step opened: the last trick's taking for a game played out,
                 the clock's end for a game cut off by it.
    claim stall  the players point at different players for longer than the event's
                 ``screen_stall_seconds`` since the step opened: the organizer settles it
                 from the table's console page (the radar says so).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime

from tables.models import Deal, GameClaim, Table
from tables.rules import game_claims as rules
from tables.rules import screen_play as play_rules
from tournament.models import Event, Phase


def uses_scoring_clause(event: Event, tables: Iterable[Table] | None = None) -> bool:
    """Whether the event uses a scoring clause (see Terms): its draw may give one
    (Event.winner_by_sheet) or one of its tables has one. ``tables``, when given, are the
    event's tables already loaded; else one query (none when the draw says so)."""
    if event.winner_by_sheet:
        return True
    if tables is not None:
        return any(table.fewest_wins for table in tables)
    return Table.objects.filter(event_id=event.pk, fewest_wins=True).exists()


def time_cut_off(event: Event, now: datetime) -> bool:
    """Whether the round's clock has cut the games in play off (a round, time up)."""
    return event.phase == Phase.ROUND and event.time_is_up(now)


def claim_step_open(deal: Deal, game: play_rules.Game[int], *, event: Event, now: datetime) -> bool:
    """Whether the deal's players point at its winner now (tables.rules.game_claims,
    Terms: claim step), at a scoring-clause event: no query unless the step would open."""
    step = rules.claim_open(
        over=game.over,
        time_up=time_cut_off(event, now),
        taken=game.taken,
        practice=deal.practice,
    )
    return step and uses_scoring_clause(event)


def claims_at(deal_id: int, taken: int) -> list[tuple[int, int]]:
    """The deal's claims made at ``taken`` tricks, as (player, winner) in the order made.
    One query."""
    return list(
        GameClaim.objects.filter(deal_id=deal_id, taken=taken)
        .order_by("pk")
        .values_list("player_id", "winner_id")
    )


def latest_claims_of(deals: Mapping[int, int]) -> dict[int, dict[int, int]]:
    """Where each player of these deals points now, by deal id; ``deals`` maps a deal's id
    to its tricks taken (claims made at another count do not count). One query."""
    found: dict[int, list[tuple[int, int]]] = {pk: [] for pk in deals}
    rows = (
        GameClaim.objects.filter(deal_id__in=list(deals))
        .order_by("pk")
        .values_list("deal_id", "taken", "player_id", "winner_id")
    )
    for deal_id, taken, player, winner in rows:
        if deals[deal_id] == taken:
            found[deal_id].append((player, winner))
    return {pk: rules.latest_claims(claims) for pk, claims in found.items()}


def opened_at(game: play_rules.Game[int], *, event: Event, last_taken_at: datetime) -> datetime:
    """When the claim step opened (see Terms: opened)."""
    if game.over or event.clock_ends_at is None:
        return last_taken_at
    return max(last_taken_at, event.clock_ends_at)


@dataclass(frozen=True)
class ClaimChoice:
    player_id: int
    name: str
    pointers: list[str]  # names, for the eye
    pointer_ids: list[int]  # for the screen that marks its own claim


@dataclass(frozen=True)
class ClaimView:
    """A deal's claim step (see Terms: claim view)."""

    taken: int
    choices: list[ClaimChoice]
    disagrees: bool
    opened_at: datetime
    stalled: bool


def claim_view(
    deal: Deal,
    game: play_rules.Game[int],
    *,
    event: Event,
    names: Mapping[int, str],
    taken_at: datetime | None,
    now: datetime,
) -> ClaimView | None:
    """The deal's claim step as a screen shows it, or None when it is not open;
    ``taken_at``: when its last trick was taken (None: no trick yet). Two queries at most,
    and none while the game is played."""
    if taken_at is None or not claim_step_open(deal, game, event=event, now=now):
        return None
    latest = rules.latest_claims(claims_at(deal.pk, game.taken))
    choices = [
        ClaimChoice(
            player,
            names.get(player, "?"),
            sorted(names.get(p, "?") for p, winner in latest.items() if winner == player),
            sorted(p for p, winner in latest.items() if winner == player),
        )
        for player in game.seats
    ]
    opened = opened_at(game, event=event, last_taken_at=taken_at)
    disagrees = rules.claims_disagree(latest)
    waited = (now - opened).total_seconds()
    return ClaimView(
        taken=game.taken,
        choices=choices,
        disagrees=disagrees,
        opened_at=opened,
        stalled=disagrees and waited > event.screen_stall_seconds,
    )


@dataclass(frozen=True)
class ClaimAlert:
    """What the radar needs of a deal's claim step."""

    disagrees: bool  # the players point at different players now
    stalled_seconds: int | None  # how long a claim stall has waited (see Terms)


def claim_alerts(
    event: Event,
    games: Iterable[tuple[Deal, play_rules.Game[int], datetime | None]],
    now: datetime,
) -> dict[int, ClaimAlert]:
    """Each deal of ``games`` (deal, its game, when its last trick was taken) whose claim
    step is open, by deal id. Two queries at most, none when no step could be open."""
    time_up = time_cut_off(event, now)
    open_steps = {
        deal.pk: (game, taken_at)
        for deal, game, taken_at in games
        if taken_at is not None
        and rules.claim_open(
            over=game.over, time_up=time_up, taken=game.taken, practice=deal.practice
        )
    }
    if not open_steps or not uses_scoring_clause(event):
        return {}
    latest = latest_claims_of({pk: game.taken for pk, (game, _at) in open_steps.items()})
    alerts = {}
    for pk, (game, taken_at) in open_steps.items():
        disagrees = rules.claims_disagree(latest[pk])
        opened = opened_at(game, event=event, last_taken_at=taken_at)
        waited = int((now - opened).total_seconds())
        stalled = waited if disagrees and waited > event.screen_stall_seconds else None
        alerts[pk] = ClaimAlert(disagrees, stalled)
    return alerts
