"""The organizer's hand at screen tables: settling a trick left in disagreement, playing a
card for a player who is gone, ending a game as it stands, and counting the games in play
when a round closes.

Terms:
    stall       a complete trick whose players have not agreed for the event's
                ``screen_stall_seconds`` (the radar flags it; tables.reads.screen_play).
    settle      the organizer names the card that takes the trick, as they settle a
                disputed game at a table with real cards.
    gone        a player whose seat holder has not shown up for a minute
                (tables.reads.screen_play.GONE_AFTER_SECONDS).
    in play     a deal not yet ended; when the round closes it counts by tricks so far
                (tables.writes.screen_games, Terms: count), at an event with a scoring
                clause too: the close never waits for the players to agree who won a game
                (tables.writes.game_claims, Terms: time up).

Each function locks the event's row first, like every write.
"""

from __future__ import annotations

import secrets
from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tables.models import Deal, DealEnd, Game, Play, Table
from tables.reads.game_claims import uses_scoring_clause
from tables.reads.screen_play import play_round, screen_round
from tables.rules import screen_play as rules
from tables.writes.screen_deals import deal_after
from tables.writes.screen_games import end_deal
from tables.writes.screen_play import (
    DealState,
    Done,
    bump_table,
    deal_in_play,
    game_of,
    take_trick,
)
from tables.writes.screen_refusals import play_refusal
from tournament.common.errors import Refused
from tournament.models import Event, Player, Round


def organizer_table_deal(event: Event, table_number: int) -> tuple[Round, Deal]:
    """The round and the deal in play at table ``table_number``, for the organizer: in play
    time and after time is up, before the close; the reason there is none, refused."""
    # After time is up too: a trick left in disagreement can still be settled.
    where = None if event.is_finished else screen_round(event)
    if where is None:
        raise Refused(_("No game is being played on screens now."))
    round_, _practice = where
    table = Table.objects.filter(event=event, number=table_number).first()
    deal = None if table is None else deal_in_play(round_, table.pk)
    if deal is None:
        raise Refused(_("Table %(number)s has no game in play.") % {"number": table_number})
    deal.round = round_
    return round_, deal


@transaction.atomic
def settle_trick(
    *, event: Event, table_number: int, trick: int, card: str, by, now: datetime | None = None
) -> Done:
    """Give trick ``trick`` at the table to whoever played ``card`` (see Terms: settle)."""
    now = now or timezone.now()
    event = Event.objects.lock(event.pk)
    round_, deal = organizer_table_deal(event, table_number)
    state = DealState.read(deal)
    current = state.game.trick
    if current is None or current.number != trick:
        raise Refused(_("That trick has already been taken."))
    if not current.complete:
        raise Refused(_("Not every card of that trick is down yet."))
    return take_trick(round_=round_, state=state, card=card, by=by, now=now)


@transaction.atomic
def play_for_player(
    *, event: Event, player_id: int, card: str, by, now: datetime | None = None
) -> Done:
    """Play ``card`` from the hand of a player who is gone (see Terms), in their turn."""
    now = now or timezone.now()
    event = Event.objects.lock(event.pk)
    player = Player.objects.filter(event=event, pk=player_id).first()
    if player is None:
        raise Refused(_("That player is not on this event's roster."))
    where = play_round(event) if event.on_screens else None
    if where is None:
        raise Refused(_("No game is being played on screens now."))
    round_, _practice = where
    deal = next(
        (
            d
            for d in Deal.objects.filter(round=round_, ended_at__isnull=True)
            if player.pk in d.seats
        ),
        None,
    )
    if deal is None:
        raise Refused(_("%(name)s has no game in play.") % {"name": player.name})
    deal.round = round_
    game = game_of(deal)
    if (problem := rules.play_problem(game, player.pk, card)) is not None:
        raise play_refusal(problem, game)
    assert game.trick is not None
    Play.objects.create(
        deal=deal,
        trick=game.trick.number,
        player=player,
        card=card,
        client_key=f"organizer-{secrets.token_hex(16)}",
        played_at=now,
        by_organizer=True,
    )
    bump_table(deal)
    return Done(deal)


@transaction.atomic
def end_game_as_it_stands(
    *,
    event: Event,
    table_number: int,
    by,
    deal_id: int | None = None,
    now: datetime | None = None,
) -> Game | None:
    """End the table's game in play, counted by tricks so far, and deal the next one
    while there is time to play it. ``deal_id`` is the game the organizer's page showed:
    a second press (or a page left open) never ends the next game too. At an event with
    a scoring clause a counted game is given to a player the organizer names instead
    (tables.writes.game_claims.settle_game_winner): its tricks never name its winner."""
    now = now or timezone.now()
    event = Event.objects.lock(event.pk)
    round_, deal = organizer_table_deal(event, table_number)
    if deal_id is not None and deal.pk != deal_id:
        raise Refused(_("That game has already ended."))
    game = game_of(deal)
    if game.taken and not deal.practice and uses_scoring_clause(event):
        raise Refused(_("At this event the players say who won a game: give it to a player."))
    recorded = end_deal(round_=round_, deal=deal, game=game, end=DealEnd.ORGANIZER, now=now)
    deal_after(round_, deal, now=now)
    bump_table(deal)
    return recorded


def count_games_in_play(*, round_: Round, now: datetime) -> list[Game]:
    """End every deal of ``round_`` still in play, counted by tricks so far (the caller,
    tournament.writes.rounds.close_round, holds the event's lock)."""
    counted = []
    for deal in Deal.objects.filter(round=round_, ended_at__isnull=True).select_related("table"):
        recorded = end_deal(
            round_=round_, deal=deal, game=game_of(deal), end=DealEnd.TIME_UP, now=now
        )
        if recorded is not None:
            counted.append(recorded)
    return counted
