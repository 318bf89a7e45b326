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
    gone         no screen of the player showed up for GONE_AFTER_SECONDS while the table
                 plays: no sighting and no action of their seat holder in that time
                 (tables.models.screen_play, Terms: sighting), or none ever. A screen that
                 is open is sighted at least every 30 seconds (its live channel's
                 heartbeat, its polls), and at once when it opens again or its stream
                 comes back after a server restart (tournament.serving.live_channel), so an open
                 screen is never gone. The screen a seat view is drawn for never shows its
                 own player gone: it is there.
    disagreement a complete trick at which the players point at more than one card.
    stall        a complete trick not taken for the event's ``screen_stall_seconds``.
    trick before the last trick taken in the table's deal before this one (tables.reads.
                 screen_rows, Terms: deal before), by its deal, its number and its taker's
                 name alone (the card is not said): a screen that showed that trick in
                 play says who took it once, when the next game is dealt
                 (static/js/screen.js).
    screen round the round whose seats hold cards: round 1 during study and practice, the
                 open round during a round; *play time* is the same until the clock runs
                 out (``play_round``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tables.models import Deal, Play, Pointing, ScreenSeat, TakenTrick
from tables.reads.game_claims import ClaimView, claim_alerts, claim_view
from tables.reads.screen_rows import last_seen, people, plays_of, pointing_of, taken_since
from tables.reads.silent_channel import GestureView, PadView, gestures_showing, pad_view
from tables.rules import screen_play as rules
from tables.rules.scoring import game_winner
from tables.rules.variants import suit_name
from tournament.models import Event, Phase, Player, Round, RoundStatus
from tournament.rules.ordering import name_key

GONE_AFTER_SECONDS = 60
# A seat whose holder was seen this recently moves only when that screen frees it or the
# organizer gives the player a new link (tables.views.screen: take_seat).
HOLDER_AWAY_SECONDS = 5 * 60

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
    gesture: GestureView | None = None  # showing beside the seat (tables.reads.silent_channel)
    gesture_card: CardView | None = None  # the card it points at


@dataclass(frozen=True)
class TrickCard:
    card: CardView
    player_name: str
    pointers: list[str]  # names, for the eye
    pointer_ids: list[int]  # for the screen that marks its own pointing


@dataclass(frozen=True)
class TrickBefore:
    """See Terms: trick before."""

    deal_id: int
    number: int
    taker: str


@dataclass
class TableView:
    """A screen table's game in play, as one viewer sees it (``me`` None: the console)."""

    deal: Deal
    trick_number: int | None
    seats: list[SeatView]
    trick: list[TrickCard]
    hand: list[CardView]
    my_turn: bool
    to_play_id: int | None
    to_play_name: str
    pointing_open: bool
    disagrees: bool
    complete_since: datetime | None
    stalled: bool
    gone: list[str] = field(default_factory=list)
    last_taken: tuple[str, CardView] | None = None
    pad: PadView | None = None
    claim: ClaimView | None = None  # the players point at who won (tables.reads.game_claims)
    trick_before: TrickBefore | None = None  # see Terms


def table_view(
    deal: Deal, *, event: Event, me: int | None, now: datetime | None = None
) -> TableView:
    """The deal in play as ``me`` sees it (None: the organizer), with the table's pad and
    the gestures showing. Five prepared queries and two (and two more while its players
    point at who won the game)."""
    now = now or timezone.now()
    gestures = gestures_showing(deal.round_id, deal.table_id, now=now)
    plays = [(p.trick, p.player_id, p.card, p.played_at) for p in plays_of(deal.pk)]
    taken_rows, before = taken_since(deal)
    taken = [(t.number, t.taker_id, t.card, t.taken_at) for t in taken_rows]
    seats = [int(p) for p in deal.seats]
    names, seen = people(seats)
    pointing = {row.player_id: row.card for row in pointing_of(deal.pk)}
    game = rules.replay(
        seats,
        hands=deal.hands_by_player,
        leader=deal.leader_id,
        plays=[(t, p, c) for t, p, c, _at in plays],
        taken={number: taker for number, taker, _card, _at in taken},
        pointing=pointing,
    )
    gone_before = now - timedelta(seconds=GONE_AFTER_SECONDS)
    trick = game.trick
    in_trick = dict(trick.plays) if trick else {}
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
            gone=player != me and (seen.get(player) is None or seen[player] < gone_before),
            gesture=gestures.get(player),
            gesture_card=card_view(gestures[player].card)
            if player in gestures and gestures[player].card
            else None,
        )
        for player in seats
    ]
    stall = timedelta(seconds=event.screen_stall_seconds)
    last = taken[-1] if taken else None
    return TableView(
        deal=deal,
        trick_number=trick.number if trick else None,
        seats=seat_views,
        trick=trick_cards(trick, names),
        hand=[card_view(card) for card in game.hands.get(me, ())] if me else [],
        my_turn=trick is not None and trick.to_play == me and me is not None,
        to_play_id=trick.to_play if trick else None,
        to_play_name=names.get(trick.to_play, "") if trick and trick.to_play else "",
        pointing_open=trick is not None and trick.complete,
        disagrees=trick is not None and rules.disagrees(trick),
        complete_since=complete_since,
        stalled=complete_since is not None
        and trick is not None
        and rules.disagrees(trick)
        and now - complete_since > stall,
        gone=[view.name for view in seat_views if view.gone],
        last_taken=(names.get(last[1], "?"), card_view(last[2])) if last else None,
        pad=pad_view(deal.round_id, deal.table_id),
        claim=claim_view(deal, game, event=event, names=names, taken_at=last and last[3], now=now),
        trick_before=trick_before(before, names),
    )


def trick_cards(trick: rules.Trick[int] | None, names: dict[int, str]) -> list[TrickCard]:
    """The cards in play, in the order played, each with who points at it."""
    pointed = trick.pointing if trick else {}
    return [
        TrickCard(
            card_view(card),
            names.get(player, "?"),
            sorted(names[p] for p, c in pointed.items() if c == card),
            sorted(p for p, c in pointed.items() if c == card),
        )
        for player, card in (trick.plays if trick else ())
    ]


def trick_before(row: TakenTrick | None, names: dict[int, str]) -> TrickBefore | None:
    """See Terms: trick before. Its taker sat at this table in this round, so is among
    the deal's ``names``; else the deal before had other seats (practice dealt again when
    they changed) and its trick is no news of this game."""
    if row is None or row.taker_id not in names:
        return None
    return TrickBefore(row.deal_id, row.number, names[row.taker_id])


def seat_is_free(player: Player, device: str, now: datetime | None = None) -> bool:
    """Whether ``device`` may take the player's seat at its own press of "Play on this
    device", without the holder's agreement or the organizer's: nobody holds it (never,
    or its holder freed it), it holds it already, or its holder has not been seen for
    HOLDER_AWAY_SECONDS (a phone switched off or lost, not one locked in a pocket for a
    minute). One query."""
    holder = ScreenSeat.objects.filter(player=player).values_list("device", "seen_at").first()
    if holder is None or holder[0] in ("", device):
        return True
    now = now or timezone.now()
    return holder[1] < now - timedelta(seconds=HOLDER_AWAY_SECONDS)


def never_held(player: Player) -> bool:
    """Whether no device ever held the player's seat (a freed seat is still held, by
    nobody). One query."""
    return not ScreenSeat.objects.filter(player=player).exists()


def holds_other_seat(player: Player, device: str) -> bool:
    """Whether ``device`` holds the seat of another player of the same event: the join
    link hands a device one seat. One query."""
    return (
        ScreenSeat.objects.filter(player__event_id=player.event_id, device=device)
        .exclude(player=player)
        .exclude(device="")
        .exists()
    )


def screen_round(event: Event) -> tuple[Round, bool] | None:
    """The round whose seats hold cards now (round 1 in study and practice), and whether
    it is practice; None between rounds, before study and at the debrief."""
    if not event.on_screens:
        return None
    if event.phase in (Phase.STUDY, Phase.PRACTICE):
        round_ = event.rounds.filter(number=1).first()
        return (round_, True) if round_ is not None else None
    if event.phase == Phase.ROUND:
        round_ = event.rounds.filter(number=event.round_number, status=RoundStatus.OPEN).first()
        return (round_, False) if round_ is not None else None
    return None


def play_round(event: Event) -> tuple[Round, bool] | None:
    """As screen_round, but None once the round's clock has run out: play time."""
    where = screen_round(event)
    if where is None or event.is_finished or (not where[1] and event.time_is_up()):
        return None
    return where


def deal_in_play_for(round_id: int, table_id: int) -> Deal | None:
    return (
        Deal.objects.filter(round_id=round_id, table_id=table_id, ended_at__isnull=True)
        .select_related("table")
        .first()
    )


@dataclass(frozen=True)
class ConsoleTable:
    """A screen table as the console shows it: the game in play, and the hand of the
    player whose turn it is when they are gone (the organizer may play it for them)."""

    view: TableView
    stand_in: SeatView | None
    stand_in_hand: list[CardView]


def console_table(event: Event, round_id: int, table_id: int) -> ConsoleTable | None:
    """None when the table has no game in play on screens. Eight queries (nine when the
    player to play is gone and their hand is read for the organizer)."""
    deal = deal_in_play_for(round_id, table_id)
    if deal is None:
        return None
    view = table_view(deal, event=event, me=None)
    turn = next((seat for seat in view.seats if seat.to_play), None)
    if turn is None or not turn.gone:
        return ConsoleTable(view, None, [])
    played = set(deal.plays.filter(player_id=turn.player_id).values_list("card", flat=True))
    held = [card for card in deal.hands_by_player[turn.player_id] if card not in played]
    return ConsoleTable(view, turn, [card_view(card) for card in held])


@dataclass(frozen=True)
class TableAlerts:
    """What the radar needs of one screen table (see Terms)."""

    stalled_seconds: int | None  # how long the trick now in disagreement has waited
    disagrees: bool  # the players point at different cards now
    disagreed: int  # tricks taken this round after a disagreement
    gone: list[str]
    # The players pointing at who won the game (tables.reads.game_claims: claim stall).
    claim_stalled_seconds: int | None = None
    claim_disagrees: bool = False


def table_alerts(event: Event, round_id: int, now: datetime) -> dict[int, TableAlerts]:
    """Every screen table of the round with something to say, by table id; five queries
    whatever the number of tables: the deals in play, their plays, their taken tricks,
    the pointing at their current tricks, the seat holders (and one count; and two more
    while some table's players point at who won its game)."""
    deals = list(Deal.objects.filter(round_id=round_id, ended_at__isnull=True))
    ids = [deal.pk for deal in deals]
    plays: dict[int, list] = {pk: [] for pk in ids}
    for deal_id, number, player, card, at in (
        Play.objects.filter(deal_id__in=ids)
        .order_by("pk")
        .values_list("deal_id", "trick", "player_id", "card", "played_at")
    ):
        plays[deal_id].append((number, player, card, at))
    taken: dict[int, dict[int, int]] = {pk: {} for pk in ids}
    taken_at: dict[int, datetime] = {}
    for deal_id, number, taker, at in TakenTrick.objects.filter(deal_id__in=ids).values_list(
        "deal_id", "number", "taker_id", "taken_at"
    ):
        taken[deal_id][number] = taker
        taken_at[deal_id] = max(at, taken_at.get(deal_id, at))
    pointing: dict[tuple[int, int], dict[int, str]] = {}
    for deal_id, number, player, card in (
        Pointing.objects.filter(deal_id__in=ids)
        .order_by("pk")
        .values_list("deal_id", "trick", "player_id", "card")
    ):
        pointing.setdefault((deal_id, number), {})[player] = card
    seated = {int(player) for deal in deals for player in deal.seats}
    seen = last_seen(sorted(seated))
    names = dict(Player.objects.filter(pk__in=seated).values_list("pk", "name"))
    disagreed = Counter(
        TakenTrick.objects.filter(
            deal__round_id=round_id, deal__practice=False, disagreed=True
        ).values_list("deal__table_id", flat=True)
    )
    gone_before = now - timedelta(seconds=GONE_AFTER_SECONDS)
    alerts: dict[int, TableAlerts] = {}
    games = []
    for deal in deals:
        current = len(taken[deal.pk]) + 1
        game = rules.replay(
            [int(p) for p in deal.seats],
            hands=deal.hands_by_player,
            leader=deal.leader_id,
            plays=[(t, p, c) for t, p, c, _at in plays[deal.pk]],
            taken=taken[deal.pk],
            pointing=pointing.get((deal.pk, current), {}),
        )
        games.append((deal, game, taken_at.get(deal.pk)))
        trick = game.trick
        stalled = None
        if trick is not None and trick.complete and rules.disagrees(trick):
            since = max(at for t, _p, _c, at in plays[deal.pk] if t == trick.number)
            waited = int((now - since).total_seconds())
            if waited > event.screen_stall_seconds:
                stalled = waited
        gone = sorted(
            (names[p] for p in game.seats if seen.get(p) is None or seen[p] < gone_before),
            key=name_key,
        )
        alerts[deal.table_id] = TableAlerts(
            stalled, trick is not None and rules.disagrees(trick), disagreed[deal.table_id], gone
        )
    claims = claim_alerts(event, games, now)
    for deal, _game, _at in games:
        if (claim := claims.get(deal.pk)) is not None:
            alerts[deal.table_id] = replace(
                alerts[deal.table_id],
                claim_stalled_seconds=claim.stalled_seconds,
                claim_disagrees=claim.disagrees,
            )
    return alerts


def games_in_play_won(round_id: int, *, table_id: int | None = None) -> dict[int, str]:
    """Who wins each screen table's game in play (or only ``table_id``'s), counted by
    tricks so far, by table number: what closing the round will record
    (tables.writes.screen_games.end_deal, the same rule), for the close's preview to show
    the same moves and a player's screen at time up the same count (not at an event with
    a scoring clause, where the table says who won: tables.reads.screens). A game with no
    trick taken counts for nobody. Three queries."""
    in_play = Deal.objects.filter(round_id=round_id, ended_at__isnull=True, practice=False)
    if table_id is not None:
        in_play = in_play.filter(table_id=table_id)
    deals = list(in_play.values("pk", "seats", "table__number", "table__fewest_wins"))
    if not deals:
        return {}
    names = dict(
        Player.objects.filter(pk__in={int(p) for d in deals for p in d["seats"]}).values_list(
            "pk", "name"
        )
    )
    taken = Counter(
        TakenTrick.objects.filter(deal_id__in=[d["pk"] for d in deals]).values_list(
            "deal_id", "taker_id"
        )
    )
    winners = {}
    for deal in deals:
        tricks = {names[int(p)]: taken[(deal["pk"], int(p))] for p in deal["seats"]}
        if sum(tricks.values()):
            fewest = deal["table__fewest_wins"]
            winners[deal["table__number"]] = game_winner(tricks, fewest_wins=fewest)
    return winners
