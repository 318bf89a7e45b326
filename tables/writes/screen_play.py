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
    read first    a card or a pointing reads the player's table (the seat's holder, the
                  deal in play and its plays) before its transaction, and under the locks
                  only the event's and the table's versions: when neither moved, what it
                  read stands, and the writer's lock (SQLite: one writer for the whole
                  database) is held for the write alone; when one did, it reads again under
                  them (tables.writes.table_lock, Terms: read first).
    client key    the key a screen makes for each action: the same key again with the same
                  action is a retry, answered as done and never stored twice; with another
                  action (another card, trick or deal) it is refused, and nothing changes
                  (tables.writes.store_once).

Dealing is tables.writes.screen_deals; holding a seat and presence,
tables.writes.screen_seats. Every write locks the event's row first (Event.objects.lock),
in one transaction (after reading first, for a card and a pointing), and bumps the
table's version so its screens (and the console, the projector) hear of it.
A refusal is a Refused whose words never say that a card is not allowed: turns are the
same at every table, and which card may be played is never judged
(tables.writes.screen_refusals).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

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
    Table,
    TakenTrick,
)
from tables.reads.game_claims import uses_scoring_clause
from tables.reads.screen_play import deal_in_play_for
from tables.reads.screen_rows import plays_of, pointing_of, taken_of
from tables.rules import screen_play as rules
from tables.writes.screen_deals import deal_after
from tables.writes.screen_games import end_deal
from tables.writes.screen_refusals import (
    foreign_key_refusal,
    play_refusal,
    refuse_out_of_play,
    refuse_unless_holder,
    reused_key_refusal,
)
from tables.writes.store_once import ClientKey, find_retry, store_once
from tables.writes.table_lock import lock_table, locked_version
from tournament.common.errors import Refused
from tournament.models import Event, Player, Round, Seat


@dataclass(frozen=True)
class Done:
    """What an action did: ``repeated`` when its client key was stored already."""

    deal: Deal
    repeated: bool = False
    taken: TakenTrick | None = None
    game: Game | None = None
    table_version: int | None = None  # the table's version it stored at (not if repeated)


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
    """The deal in play at the player's seat in ``round_``, with its table (and so the
    table's version as the deal was read), in one query; the reason it has none, refused."""
    deal = (
        Deal.objects.filter(
            round=round_,
            ended_at__isnull=True,
            table__seats__round=round_,
            table__seats__player=player,
        )
        .select_related("table")
        .first()
    )
    if deal is None:
        if not Seat.objects.filter(round=round_, player=player).exists():
            raise Refused(_("You are not seated at a table in this round."))
        raise Refused(_("The next game is being dealt. Try again in a moment."))
    deal.round = round_
    return deal


@dataclass
class Seated:
    """The player's table as a write read it (see Terms: read first)."""

    shared_version: int  # the event's, when it was read
    table_version: int  # the table's, read with the deal: at or before its plays
    held: bool  # whether a device held the seat (refuse_unless_holder)
    round_: Round
    state: DealState

    @property
    def deal(self) -> Deal:
        return self.state.deal


def read_seated(event: Event, player: Player, device: str) -> Seated:
    """Where ``player`` plays, as it stands (see Seated); the reason they may not act
    there, refused."""
    held = refuse_unless_holder(player, device)
    round_, _practice = refuse_out_of_play(event)
    deal = seated_deal(round_, player)
    return Seated(event.shared_version, deal.table.version, held, round_, DealState.read(deal))


def read_first(player: Player, device: str) -> Seated | None:
    """The player's table read before the write's transaction (see Terms: read first);
    None when that read refuses: the write reads again under the locks and says why, as
    the table stands then."""
    try:
        return read_seated(player.event, player, device)
    except Refused:
        return None


def seated_under_lock(event: Event, player: Player, device: str, first: Seated | None) -> Seated:
    """The player's table under the event's lock (taken by the caller) and the table's:
    what was read first when neither version moved since and a device held the seat,
    else read again now (see Terms: read first)."""
    if (
        first is not None
        and first.held
        and first.shared_version == event.shared_version
        and locked_version(first.deal.table_id) == first.table_version
    ):
        first.round_.event = event  # as it stands under the lock (the same version)
        return first
    held = refuse_unless_holder(player, device)
    round_, deal = _players_deal(event, player)
    return Seated(event.shared_version, deal.table.version, held, round_, DealState.read(deal))


# --- a player's actions --------------------------------------------------------------------


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
    return _at_the_table(
        player=player,
        device=device,
        key=_action_key(Play, client_key, player, card=card, trick=trick, deal_id=deal_id),
        write=lambda seated: _play(seated, player, card, client_key, device, deal_id, trick, now),
    )


def _at_the_table(
    *,
    player: Player,
    device: str,
    key: ClientKey[Play | Pointing],
    write: Callable[[Seated], Done],
) -> Done:
    """A card's or a pointing's way to its write (see Terms: read first): a retry
    answered before any lock, the table read before it too, then under the event's and
    the table's locks ``write`` with what stands."""
    if (found := find_retry(key=key)) is not None:
        return _repeated(found)
    first = read_first(player, device)
    with transaction.atomic():
        event = Event.objects.lock(player.event_id, one_table=True)
        seated = seated_under_lock(event, player, device, first)
        # The table moved on since it was read: this key may be what moved it.
        if seated is not first and (found := find_retry(key=key)) is not None:
            return _repeated(found)
        return write(seated)


def _play(
    seated: Seated,
    player: Player,
    card: str,
    client_key: str,
    device: str,
    deal_id: int | None,
    trick: int | None,
    now: datetime,
) -> Done:
    deal, held, game = seated.deal, seated.held, seated.state.game
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
    return _at_the_table(
        player=player,
        device=device,
        key=_action_key(Pointing, client_key, player, card=card, trick=trick, deal_id=deal_id),
        write=lambda seated: _point(seated, player, trick, card, client_key, device, deal_id, now),
    )


def _point(
    seated: Seated,
    player: Player,
    trick: int,
    card: str,
    client_key: str,
    device: str,
    deal_id: int | None,
    now: datetime,
) -> Done:
    round_, deal, held, state = seated.round_, seated.deal, seated.held, seated.state
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


# --- a seat used -----------------------------------------------------------------------


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
