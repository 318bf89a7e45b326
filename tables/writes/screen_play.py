"""Every write of a screen table: dealing, playing a card, pointing, taking a trick,
recording a game that ends, and the organizer's hand in it (settling a trick, playing for
a player who is gone, ending a game as it stands).

Terms:
    screen table  a table of an event whose cards are on screens (Event.on_screens).
    deal, play, pointing, taken, seat holder
                  see tables.models.screen_play; the rules are tables.rules.screen_play.
    play time     study and practice (practice deals of round 1, never counted), or an open
                  round whose clock has not run out. Out of it no card is taken.
    count         a deal that ends becomes the table's next game (tables.writes.screen_games:
                  end_deal), confirmed at once: nobody reports it. At an event with a
                  scoring clause a game whose last trick is taken stays in play until its
                  players agree who won it (tables.writes.game_claims), so no screen names
                  a winner before the table does.
    client key    the key a screen makes for each action: the same key again with the same
                  action is a retry, answered as done and never stored twice; with another
                  action (another card, trick or deal) it is refused, and nothing changes
                  (tables.writes.store_once).

Dealing is tables.writes.screen_deals. Every function locks the event's row first
(Event.objects.lock), in one transaction, and bumps the table's version so its screens
(and the console, the projector) hear of it.
A refusal is a Refused whose words never say that a card is not allowed: turns are the
same at every table, and which card may be played is never judged.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tables.models import (
    Deal,
    DealEnd,
    Game,
    Play,
    Pointing,
    ScreenSeat,
    ScreenSighting,
    Table,
    TakenTrick,
)
from tables.reads.game_claims import uses_scoring_clause
from tables.reads.screen_play import deal_in_play_for, play_round
from tables.reads.screen_rows import plays_of, pointing_of, taken_of
from tables.rules import screen_play as rules
from tables.writes.screen_deals import deal_after
from tables.writes.screen_games import end_deal
from tables.writes.screen_seats import tell_seat_moved
from tables.writes.store_once import ClientKey, find_retry, store_once
from tables.writes.table_lock import lock_table
from tournament.common.errors import Refused
from tournament.models import Event, Phase, Player, Round, Seat


@dataclass(frozen=True)
class Done:
    """What an action did: ``repeated`` when its client key was stored already."""

    deal: Deal
    repeated: bool = False
    taken: TakenTrick | None = None
    game: Game | None = None
    table_version: int | None = None  # the table's version it stored at (not if repeated)


# --- where play happens ----------------------------------------------------------------


def refuse_out_of_play(event: Event) -> tuple[Round, bool]:
    if not event.on_screens:
        raise Refused(_("The cards of this event are on the tables, not on screens."))
    if event.is_finished:
        raise Refused(_("The event is over."))
    where = play_round(event)
    if where is None:
        if event.phase == Phase.ROUND:
            raise Refused(_("Time is up: the round is over. Wait for the organizer."))
        raise Refused(_("Play starts when the organizer starts the study time."))
    return where


# --- reading a deal under the lock ---------------------------------------------------------


def deal_in_play(round_: Round, table_id: int) -> Deal | None:
    deal = deal_in_play_for(round_.pk, table_id)
    if deal is not None:
        deal.round = round_
    return deal


@dataclass
class DealState:
    """A deal's plays, taken tricks and the pointing at its current trick, read once
    under the event's lock (three queries) and kept up to date in memory as the write
    adds to them, so a write replays the game as often as it needs without reading it
    again: the less a write does while it holds the lock, the sooner the next one runs."""

    deal: Deal
    plays: list[tuple[int, int, str, datetime]]  # (trick, player, card, played at)
    taken: dict[int, int]  # trick number -> taker
    pointings: list[tuple[int, str]]  # the current trick's, in order: (player, card)

    @classmethod
    def read(cls, deal: Deal) -> DealState:
        plays = [(p.trick, p.player_id, p.card, p.played_at) for p in plays_of(deal.pk)]
        taken = {t.number: t.taker_id for t in taken_of(deal.pk)}
        pointings = [(row.player_id, row.card) for row in pointing_of(deal.pk)]
        return cls(deal, plays, taken, pointings)

    @property
    def game(self) -> rules.Game[int]:
        return rules.replay(
            [int(p) for p in self.deal.seats],
            hands=self.deal.hands_by_player,
            leader=self.deal.leader_id,
            plays=[(trick, player, card) for trick, player, card, _at in self.plays],
            taken=self.taken,
            pointing=dict(self.pointings),
        )


def game_of(deal: Deal) -> rules.Game[int]:
    """Where ``deal`` stands, with the latest pointing at its current trick."""
    return DealState.read(deal).game


def _refuse_moved_on(
    deal: Deal, game: rules.Game[int], *, deal_id: int | None, trick: int | None
) -> None:
    shown_trick = game.trick.number if game.trick else None
    if (deal_id is not None and deal_id != deal.pk) or (trick is not None and trick != shown_trick):
        raise Refused(_("The table has moved on since: look at it again."))


def _players_deal(event: Event, player: Player) -> tuple[Round, Deal]:
    """The player's deal in play, read under its table's lock (tables.writes.table_lock):
    again once the lock is held, where rows lock, as another write there may have moved
    the table on meanwhile."""
    round_, _practice = refuse_out_of_play(event)
    deal = seated_deal(round_, player)
    return round_, seated_deal(round_, player) if lock_table(deal.table_id) else deal


def seated_deal(round_: Round, player: Player) -> Deal:
    """The deal in play at the player's seat in ``round_``, in one query; the reason it
    has none, refused."""
    deal = Deal.objects.filter(
        round=round_, ended_at__isnull=True, table__seats__round=round_, table__seats__player=player
    ).first()
    if deal is None:
        if not Seat.objects.filter(round=round_, player=player).exists():
            raise Refused(_("You are not seated at a table in this round."))
        raise Refused(_("The next game is being dealt. Try again in a moment."))
    deal.round = round_
    return deal


def refuse_unless_holder(player: Player, device: str) -> bool:
    """Refuse a device that no longer holds the seat; whether any device holds it. A
    request without the phone cookie (``device`` empty) is refused too: it never takes or
    moves a seat, whoever holds it (the page's script always sends the cookie; a browser
    that keeps none cannot hold a seat, as "Play on this device" says)."""
    if not device:
        raise Refused(_("This browser keeps no cookie, so it cannot hold a seat."))
    holder = ScreenSeat.objects.filter(player=player).values_list("device", flat=True).first()
    if holder is not None and holder != device:
        raise Refused(
            _("Your seat is open on another device. Press “Play on this device” to play here.")
        )
    return holder is not None


def play_refusal(problem: str, game: rules.Game[int]) -> Refused:
    if problem == rules.PlayProblem.NOT_YOUR_TURN and game.trick and game.trick.to_play:
        name = Player.objects.filter(pk=game.trick.to_play).values_list("name", flat=True).get()
        return Refused(_("Wait for your turn: %(name)s plays next.") % {"name": name})
    messages = {
        rules.PlayProblem.OVER: _("This game is over: the next one is being dealt."),
        rules.PlayProblem.POINTING: _(
            "Every card of this trick is down: point at the card that takes it."
        ),
        rules.PlayProblem.NOT_HELD: _("That card is no longer in your hand."),
        rules.PlayProblem.SAT_OUT: _("You have no card left for this trick."),
    }
    return Refused(messages.get(problem, _("Wait for your turn.")))


# --- a player's actions --------------------------------------------------------------------


def foreign_key_refusal() -> Refused:
    """The words for a key another player's action holds (keys are random: a forged or
    mixed-up request), which say nothing of the move itself."""
    return Refused(
        _("This move could not be matched to your screen. Reload the page and try again.")
    )


def reused_key_refusal() -> Refused:
    """The words for a key sent again with another action (see Terms: client key)."""
    return Refused(
        _(
            "This key was already used for another move: nothing was changed. Reload the "
            "page and try again."
        )
    )


def _action_key(
    model: type[Play] | type[Pointing],
    client_key: str,
    player: Player,
    *,
    card: str,
    trick: int | None,
    deal_id: int | None,
) -> ClientKey[Play | Pointing]:
    """A card's or a pointing's key (tables.writes.store_once): a retry is this player's
    action with the same card (and the same trick and deal, when the request names them).
    A key another player's action holds is refused (keys are random: a forged request),
    and so is this player's key with another card, trick or deal (see Terms: client key).
    """
    return ClientKey(
        find=lambda: (
            model.objects.filter(client_key=client_key).select_related("deal__round").first()
        ),
        mine=lambda found: found.player_id == player.pk,
        same=lambda found: (
            found.card == card and trick in (None, found.trick) and deal_id in (None, found.deal_id)
        ),
        foreign=foreign_key_refusal,
        reused=reused_key_refusal,
    )


def _repeated(found: Play | Pointing) -> Done:
    """A retry's answer: the deal its action was stored in."""
    return Done(found.deal, repeated=True)


@transaction.atomic
def play_card(
    *,
    player: Player,
    card: str,
    client_key: str,
    device: str,
    deal_id: int | None = None,
    trick: int | None = None,
    now: datetime | None = None,
) -> Done:
    """Put ``card`` from ``player``'s hand into the trick at their table (see Terms).
    ``deal_id`` and ``trick``, when given, are what the player's screen showed: a move
    queued while the table moved on is refused, never played into another trick."""
    now = now or timezone.now()
    event = Event.objects.lock(player.event_id, one_table=True)
    key = _action_key(Play, client_key, player, card=card, trick=trick, deal_id=deal_id)
    if (found := find_retry(key=key)) is not None:
        return _repeated(found)
    held = refuse_unless_holder(player, device)
    _round, deal = _players_deal(event, player)
    game = DealState.read(deal).game
    _refuse_moved_on(deal, game, deal_id=deal_id, trick=trick)
    if (problem := rules.play_problem(game, player.pk, card)) is not None:
        raise play_refusal(problem, game)
    assert game.trick is not None  # play_problem refuses a game that is over
    number = game.trick.number

    def store() -> Done:
        Play.objects.create(
            player=player,
            deal=deal,
            trick=number,
            card=card,
            client_key=client_key,
            played_at=now,
        )
        return Done(deal, table_version=_touch(deal, player, device, now, held=held))

    # A request with this key may have stored it since find_retry, before the table's
    # lock (tables.writes.store_once, Terms: race): a retry only with this card in the
    # trick and deal it would have gone into.
    key = _action_key(Play, client_key, player, card=card, trick=number, deal_id=deal.pk)
    return store_once(key=key, store=store, repeated=_repeated)


@transaction.atomic
def point_at_card(
    *,
    player: Player,
    trick: int,
    card: str,
    client_key: str,
    device: str,
    deal_id: int | None = None,
    now: datetime | None = None,
) -> Done:
    """Point ``player`` at ``card`` in trick number ``trick`` of their table's game (of
    deal ``deal_id``, when given); when everyone then points at one card, the trick is
    taken (and a game that ends counted)."""
    now = now or timezone.now()
    event = Event.objects.lock(player.event_id, one_table=True)
    key = _action_key(Pointing, client_key, player, card=card, trick=trick, deal_id=deal_id)
    if (found := find_retry(key=key)) is not None:
        return _repeated(found)
    held = refuse_unless_holder(player, device)
    round_, deal = _players_deal(event, player)
    state = DealState.read(deal)
    current = state.game.trick
    if (deal_id is not None and deal_id != deal.pk) or current is None or current.number != trick:
        raise Refused(_("That trick has already been taken."))
    if not current.complete:
        raise Refused(_("Point once every card of the trick is down."))
    if current.owner(card) is None:
        raise Refused(_("That card is not in this trick."))

    def store() -> Done:
        Pointing.objects.create(
            player=player,
            deal=deal,
            trick=trick,
            card=card,
            client_key=client_key,
            pointed_at=now,
        )
        return Done(deal, table_version=_touch(deal, player, device, now, held=held))

    key = _action_key(Pointing, client_key, player, card=card, trick=trick, deal_id=deal.pk)
    done = store_once(key=key, store=store, repeated=_repeated)
    if done.repeated:
        return done
    state.pointings.append((player.pk, card))
    game = state.game
    assert game.trick is not None
    taker = rules.agreed_taker(game.trick, [int(p) for p in deal.seats])
    if taker is None:
        return done
    return take_trick(round_=round_, state=state, card=card, by=None, now=now)


def take_trick(*, round_: Round, state: DealState, card: str, by, now: datetime) -> Done:
    """Give the current trick to whoever played ``card`` (by agreement, or the organizer
    ``by``); a game that ends is counted and the next one dealt, unless its players are
    to say who won it (see Terms: count). The caller holds the event's lock."""
    deal = state.deal
    trick = state.game.trick
    assert trick is not None
    assert trick.complete
    taker = trick.owner(card)
    if taker is None:
        raise Refused(_("That card is not in this trick."))
    complete_at = max((at for number, _p, _c, at in state.plays if number == trick.number))
    taken = TakenTrick.objects.create(
        deal=deal,
        number=trick.number,
        taker_id=taker,
        card=card,
        complete_at=complete_at,
        taken_at=now,
        disagreed=rules.ever_disagreed(state.pointings),
        settled=by is not None,
        settled_by=by,
    )
    state.taken[trick.number] = taker
    state.pointings = []
    after = state.game
    if not after.over or uses_scoring_clause(round_.event):
        return Done(deal, taken=taken, table_version=bump_table(deal))
    recorded = end_deal(round_=round_, deal=deal, game=after, end=DealEnd.PLAYED_OUT, now=now)
    deal_after(round_, deal, now=now)
    return Done(deal, taken=taken, game=recorded, table_version=bump_table(deal))


# --- who holds a seat --------------------------------------------------------------------

SEEN_EVERY_SECONDS = 15


def hold_seat(*, player: Player, device: str, now: datetime | None = None) -> bool:
    """``device`` holds ``player``'s seat from now on (see Terms: seat holder), and the
    player is sighted. The caller checked that it may (tables.reads.screen_play:
    seat_is_free). True when it took the seat from another device, whose screen is told
    at once: the table's version changes."""
    now = now or timezone.now()
    with transaction.atomic():
        event = Event.objects.lock(player.event_id)
        _sight([player.pk], now)
        seat, made = ScreenSeat.objects.get_or_create(
            player=player, defaults={"device": device, "seen_at": now}
        )
        if made or seat.device == device:
            if not made:
                ScreenSeat.objects.filter(pk=seat.pk).update(seen_at=now)
            return False
        seat.device, seat.seen_at = device, now
        seat.save(update_fields=["device", "seen_at"])
        tell_seat_moved(event, player)
        return True


def note_seen(*, player_ids: Iterable[int], now: datetime | None = None) -> int:
    """A screen of each of these players showed up (its page, a fetch of its live part,
    the live channel's stream opening or its heartbeat), whichever device it is on and
    whether or not that device holds the seat: each player's sighting (made when
    missing) and their seat holder's ``seen_at`` are kept when older than
    SEEN_EVERY_SECONDS. No seat is taken. One queued writer (a statement outside a
    transaction would meet SQLite's busy wait and slow the writers queued behind it),
    four statements whatever the number of players. Returns how many were sighted."""
    now = now or timezone.now()
    ids = sorted(set(player_ids))
    if not ids:
        return 0
    with transaction.atomic():
        events = dict(Player.objects.filter(pk__in=ids).values_list("pk", "event_id"))
        for event_id in sorted(set(events.values())):
            Event.objects.lock(event_id)
        stale = now - timedelta(seconds=SEEN_EVERY_SECONDS)
        fresh = set(
            ScreenSighting.objects.filter(player_id__in=events, last_seen__gte=stale).values_list(
                "player_id", flat=True
            )
        )
        due = sorted(pk for pk in events if pk not in fresh)
        _sight(due, now)
        ScreenSeat.objects.filter(player_id__in=ids, seen_at__lt=stale).update(seen_at=now)
        return len(due)


def _sight(player_ids: list[int], now: datetime) -> None:
    """Sight these players now (see tables.models.screen_play, Terms: sighting): one
    upsert. The caller holds their event's lock."""
    if player_ids:
        ScreenSighting.objects.bulk_create(
            [ScreenSighting(player_id=pk, last_seen=now) for pk in player_ids],
            update_conflicts=True,
            unique_fields=["player"],
            update_fields=["last_seen"],
        )


def _touch(deal: Deal, player: Player, device: str, now: datetime, *, held: bool) -> int | None:
    touch_seat(player, device, now, held=held)
    return bump_table(deal)


def touch_seat(player: Player, device: str, now: datetime, *, held: bool) -> None:
    """The player acted from ``device``: it holds the seat and was seen now."""
    if held:
        ScreenSeat.objects.filter(player=player).update(seen_at=now)
    else:
        ScreenSeat.objects.create(player=player, device=device, seen_at=now)


def bump_table(deal: Deal) -> int | None:
    """The table's new version (its screens are woken at the commit)."""
    event_id = deal.round.event_id  # the writes set deal.round: no query here
    return Table.objects.bump_version(table_id=deal.table_id, event_id=event_id)
