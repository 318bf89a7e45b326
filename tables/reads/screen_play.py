"""What a screen table shows: to a player (their hand, the trick, who points where), to the
console (the same without the hands' secrets kept from the organizer), and to the radar
(stalls, disagreements, players who are gone). Reads only; a constant number of queries.

Terms:
    card view    a card as a button shows it: its code, rank, the suit's symbol and a
                 name for a screen reader ("7 of hearts"); the suit always has its symbol,
                 never its colour alone.
    seat view    one player of the deal as the table sees them: cards left, tricks taken,
                 the card they played to this trick, where they point, whether it is their
                 turn, and whether they are gone.
    gone         the device holding a player's seat has not shown up for GONE_AFTER_SECONDS
                 (or none ever did) while the table plays.
    disagreement a complete trick at which the players point at more than one card.
    stall        a complete trick not taken for the event's ``screen_stall_seconds``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tables.models import Deal, ScreenSeat
from tables.rules import screen_play as rules
from tables.rules.variants import suit_name
from tournament.models import Event, Player

GONE_AFTER_SECONDS = 60

_RANK_NAMES = {
    # Translators: a card's rank inside "%(rank)s of %(suit)s", e.g. "ace of hearts".
    "A": gettext_noop("ace"),
}


@dataclass(frozen=True)
class CardView:
    code: str
    rank: str
    symbol: str
    suit: str  # "hearts": for the CSS class only, never the only sign of the suit
    label: str  # "7 of hearts"


def card_view(code: str) -> CardView:
    suit = rules.card_suit(code)
    rank = rules.card_rank(code)
    rank_name = _(_RANK_NAMES[rank]) if rank in _RANK_NAMES else rank
    # Translators: a card's name for a screen reader, e.g. "7 of hearts", "ace of spades".
    label = _("%(rank)s of %(suit)s") % {"rank": rank_name, "suit": suit_name(suit, _)}
    return CardView(code, rank, suit.symbol, suit.value, label)


@dataclass(frozen=True)
class SeatView:
    player_id: int
    name: str
    is_me: bool
    cards_left: int
    tricks: int
    played: CardView | None
    pointing: CardView | None
    to_play: bool
    gone: bool
    leads: bool


@dataclass(frozen=True)
class TrickCard:
    card: CardView
    player_name: str
    pointers: list[str]


@dataclass
class TableView:
    """A screen table's game in play, as one viewer sees it (``me`` None: the console)."""

    deal: Deal
    trick_number: int | None
    seats: list[SeatView]
    trick: list[TrickCard]
    hand: list[CardView]
    my_turn: bool
    to_play_name: str
    pointing_open: bool
    my_pointing: str | None
    disagrees: bool
    complete_since: datetime | None
    stalled: bool
    gone: list[str] = field(default_factory=list)
    last_taken: tuple[str, CardView] | None = None

    @property
    def trick_count(self) -> int:
        return sum(seat.tricks for seat in self.seats)


def table_view(
    deal: Deal, *, event: Event, me: int | None, now: datetime | None = None
) -> TableView:
    """The deal in play as ``me`` sees it (None: the organizer). Five queries."""
    now = now or timezone.now()
    plays = list(deal.plays.order_by("pk").values_list("trick", "player_id", "card", "played_at"))
    taken = list(deal.taken.order_by("number").values_list("number", "taker_id", "card"))
    seats = [int(p) for p in deal.seats]
    names = dict(Player.objects.filter(pk__in=seats).values_list("pk", "name"))
    current = len(taken) + 1
    pointing: dict[int, str] = {}
    for player, card in (
        deal.pointings.filter(trick=current).order_by("pk").values_list("player_id", "card")
    ):
        pointing[player] = card
    game = rules.replay(
        seats,
        hands=deal.hands_by_player,
        leader=deal.leader_id,
        plays=[(t, p, c) for t, p, c, _at in plays],
        taken={number: taker for number, taker, _card in taken},
        pointing=pointing,
    )
    seen = dict(ScreenSeat.objects.filter(player_id__in=seats).values_list("player_id", "seen_at"))
    gone_before = now - timedelta(seconds=GONE_AFTER_SECONDS)
    trick = game.trick
    in_trick = dict(trick.plays) if trick else {}
    pointed = trick.pointing if trick else {}
    complete_since = None
    if trick is not None and trick.complete:
        complete_since = max(at for t, _p, _c, at in plays if t == trick.number)
    seat_views = [
        SeatView(
            player_id=player,
            name=names.get(player, "?"),
            is_me=player == me,
            cards_left=len(game.hands[player]),
            tricks=game.tricks[player],
            played=card_view(in_trick[player]) if player in in_trick else None,
            pointing=card_view(trick.pointing[player])
            if trick and player in trick.pointing
            else None,
            to_play=trick is not None and trick.to_play == player,
            gone=seen.get(player) is None or seen[player] < gone_before,
            leads=trick is not None and trick.leader == player,
        )
        for player in seats
    ]
    trick_cards = [
        TrickCard(
            card_view(card),
            names.get(player, "?"),
            sorted(names[p] for p, c in pointed.items() if c == card),
        )
        for player, card in (trick.plays if trick else ())
    ]
    stall = timedelta(seconds=event.screen_stall_seconds)
    last = taken[-1] if taken else None
    return TableView(
        deal=deal,
        trick_number=trick.number if trick else None,
        seats=seat_views,
        trick=trick_cards,
        hand=[card_view(card) for card in game.hands.get(me, ())] if me else [],
        my_turn=trick is not None and trick.to_play == me and me is not None,
        to_play_name=names.get(trick.to_play, "") if trick and trick.to_play else "",
        pointing_open=trick is not None and trick.complete,
        my_pointing=trick.pointing.get(me) if trick and me else None,
        disagrees=trick is not None and rules.disagrees(trick),
        complete_since=complete_since,
        stalled=complete_since is not None and now - complete_since > stall,
        gone=[view.name for view in seat_views if view.gone],
        last_taken=(names.get(last[1], "?"), card_view(last[2])) if last else None,
    )


def deal_in_play_for(event: Event, round_id: int, table_id: int) -> Deal | None:
    return (
        Deal.objects.filter(round_id=round_id, table_id=table_id, ended_at__isnull=True)
        .select_related("table")
        .first()
    )
