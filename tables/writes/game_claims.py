"""A screen table's game given to its winner by the players themselves, at an event with
a scoring clause, and the organizer's hand in it (tables.rules.game_claims says when and
why: the app never names the winner a table's tricks would give).

Terms:
    claim, claim step, agreement
                see tables.rules.game_claims; scoring-clause event: tables.reads.game_claims.
    give        the game goes to a player: by agreement, every player of the deal pointing
                at them (the game is CONFIRMED), or from the organizer (``settle``: SETTLED,
                written in the corrections log with where the players pointed). The deal
                then ends (tables.writes.screen_games.end_deal) and, while there is play
                time, the table's next game is dealt, as a trick's agreement deals it at
                an event without a scoring clause.
    settle      the organizer names the winner: of a game whose players do not agree (a
                claim stall on the radar), or of a game the organizer ends before its last
                trick (at a scoring-clause event the organizer's "end this game" names its
                winner: counting it by its tricks would name the winner they give).
    time up     the clock cut the game in play off. Its players may still point at its
                winner while the round is at time up and not yet closed, and a game they
                agree on (or the organizer settles) is given at once; no game is dealt
                after it, and its table's screens say time is up until the close. The
                close never waits for them: a game still unagreed then counts by its
                tricks so far, as every game cut off at an event without a scoring clause
                (tables.writes.screen_organizer.count_games_in_play). That is fair to the
                player the table's own rules make the winner, and it is the round's last
                word, said once the round is over.
    client key  as a card's or a pointing's (tables.writes.screen_play): the same key with
                the same claim is a retry, answered as done and stored once; with another
                winner, deal or count of tricks it is refused, and nothing changes
                (tables.writes.store_once).

Every function locks the event's row first (Event.objects.lock), in one transaction, and
bumps the table's version so its screens (and the console, the projector) hear of it.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tables.models import CorrectionAction, Deal, DealEnd, GameClaim
from tables.reads.game_claims import (
    claim_step_open,
    claims_at,
    time_cut_off,
    uses_scoring_clause,
)
from tables.reads.screen_play import screen_round
from tables.rules import game_claims as rules
from tables.rules import screen_play as play_rules
from tables.writes.corrections import log_correction
from tables.writes.screen_deals import deal_after
from tables.writes.screen_games import end_deal
from tables.writes.screen_organizer import organizer_table_deal
from tables.writes.screen_play import (
    DealState,
    Done,
    bump_table,
    seated_deal,
    touch_seat,
)
from tables.writes.screen_refusals import (
    foreign_key_refusal,
    refuse_unless_holder,
    reused_key_refusal,
)
from tables.writes.store_once import ClientKey, find_retry, store_once
from tables.writes.table_lock import lock_table
from tournament.common.errors import Refused
from tournament.models import Event, Player, Round

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def _moved_on() -> Refused:
    return Refused(_("The table has moved on since: look at it again."))


def _claim_round(event: Event) -> Round:
    """The round whose games its players may give now: play time, or time up before the
    close (see Terms: time up)."""
    if not event.on_screens:
        raise Refused(_("The cards of this event are on the tables, not on screens."))
    if event.is_finished:
        raise Refused(_("The event is over."))
    where = screen_round(event)
    if where is None:
        raise Refused(_("No game is being played on screens now."))
    if not uses_scoring_clause(event):
        raise Refused(_("At this event each game counts by itself: nobody points at its winner."))
    return where[0]


def _claim_key(
    client_key: str, player: Player, *, winner_id: int, deal_id: int | None, taken: int | None
) -> ClientKey[GameClaim]:
    """A claim's key (tables.writes.store_once): a retry is this player's claim of the
    same winner (and the same deal and count, when the request names them); see Terms:
    client key."""
    return ClientKey(
        find=lambda: (
            GameClaim.objects.filter(client_key=client_key).select_related("deal__round").first()
        ),
        mine=lambda found: found.player_id == player.pk,
        same=lambda found: (
            found.winner_id == winner_id
            and deal_id in (None, found.deal_id)
            and taken in (None, found.taken)
        ),
        foreign=foreign_key_refusal,
        reused=reused_key_refusal,
    )


def _repeated(found: GameClaim) -> Done:
    """A retry's answer: the deal its claim was stored in."""
    return Done(found.deal, repeated=True)


@transaction.atomic
def point_at_winner(
    *,
    player: Player,
    winner_id: int,
    client_key: str,
    device: str,
    deal_id: int | None = None,
    taken: int | None = None,
    now: datetime | None = None,
) -> Done:
    """Point ``player`` at ``winner_id`` as the winner of their table's game (of deal
    ``deal_id`` standing at ``taken`` tricks, when given: what the screen showed); when
    everyone then points at one player, the game is given to them (see Terms: give)."""
    now = now or timezone.now()
    event = Event.objects.lock(player.event_id, one_table=True)
    key = _claim_key(client_key, player, winner_id=winner_id, deal_id=deal_id, taken=taken)
    if (found := find_retry(key=key)) is not None:
        return _repeated(found)
    held = refuse_unless_holder(player, device)
    round_ = _claim_round(event)
    try:
        deal = seated_deal(round_, player)
        if lock_table(deal.table_id):  # read again under the table's lock
            deal = seated_deal(round_, player)
    except Refused:
        if time_cut_off(event, now):  # the game cut off was given already
            raise Refused(_("Time is up: the round is over. Wait for the organizer.")) from None
        raise
    if deal_id is not None and deal_id != deal.pk:
        raise _moved_on()
    game = DealState.read(deal).game
    if not claim_step_open(deal, game, event=event, now=now):
        raise Refused(_("Point at who won the game once its last trick is taken."))
    if taken is not None and taken != game.taken:
        raise _moved_on()
    seats = [int(p) for p in deal.seats]
    if winner_id not in seats or player.pk not in seats:
        raise Refused(_("That player is not playing this game at your table."))

    def store() -> Done:
        GameClaim.objects.create(
            deal=deal,
            taken=game.taken,
            player=player,
            winner_id=winner_id,
            claimed_at=now,
            client_key=client_key,
        )
        touch_seat(player, device, now, held=held)
        return Done(deal)

    # A request with this key may have stored it since find_retry, before the table's
    # lock (tables.writes.store_once, Terms: race).
    key = _claim_key(client_key, player, winner_id=winner_id, deal_id=deal.pk, taken=taken)
    if (done := store_once(key=key, store=store, repeated=_repeated)).repeated:
        return done
    latest = rules.latest_claims(claims_at(deal.pk, game.taken))
    winner = rules.agreed_winner(latest, seats)
    if winner is None:
        return Done(deal, table_version=bump_table(deal))
    return _give(round_, deal, game, winner_id=winner, by=None, event=event, now=now)


@transaction.atomic
def settle_game_winner(
    *,
    event: Event,
    table_number: int,
    winner_id: int,
    by: User | None,
    deal_id: int | None = None,
    now: datetime | None = None,
) -> Done:
    """Give the table's game in play to ``winner_id`` (see Terms: settle). ``deal_id`` is
    the game the organizer's page showed: a second press never gives the next game too."""
    now = now or timezone.now()
    event = Event.objects.lock(event.pk)
    round_, deal = organizer_table_deal(event, table_number)
    if deal_id is not None and deal.pk != deal_id:
        raise Refused(_("That game has already ended."))
    if not uses_scoring_clause(event):
        raise Refused(_("At this event each game counts by itself: end it as it stands instead."))
    game = DealState.read(deal).game
    if not game.taken and not deal.practice:
        raise Refused(
            _("No trick of this game has been taken, so it does not count: end it as it stands.")
        )
    if winner_id not in [int(p) for p in deal.seats]:
        raise Refused(_("That player is not playing this game at the table."))
    return _give(round_, deal, game, winner_id=winner_id, by=by, event=event, now=now)


def _give(
    round_: Round,
    deal: Deal,
    game: play_rules.Game[int],
    *,
    winner_id: int,
    by: User | None,
    event: Event,
    now: datetime,
) -> Done:
    """Give the game to ``winner_id`` (see Terms: give); the caller holds the lock."""
    if game.over:
        end = DealEnd.PLAYED_OUT
    elif time_cut_off(event, now):
        end = DealEnd.TIME_UP
    else:
        end = DealEnd.ORGANIZER
    pointed = rules.latest_claims(claims_at(deal.pk, game.taken))
    recorded = end_deal(
        round_=round_,
        deal=deal,
        game=game,
        end=end,
        now=now,
        winner_id=winner_id,
        settled=by is not None,
    )
    if recorded is not None and by is not None:
        names = dict(Player.objects.filter(pk__in=deal.seats).values_list("pk", "name"))
        claimed = list(dict.fromkeys(names[winner] for winner in pointed.values()))
        log_correction(
            of=recorded,
            action=CorrectionAction.SETTLED if claimed else CorrectionAction.ADDED,
            by=by,
            before={"claims": claimed} if claimed else None,
            after=recorded,
        )
    deal_after(round_, deal, now=now)
    return Done(deal, game=recorded, table_version=bump_table(deal))
