"""A screen event played to its debrief with a story to tell: tricks agreed at once, one the
players disagreed about before they agreed, one the organizer settled, a game played out,
and drawings on a pad before and after that game ended.

Terms:
    story event  two tables of five, two rounds (``story_event``). In round 1, table 1
                 plays its whole game 1: trick 1 is disagreed (its second player points at
                 another card first) and agreed after AGREED_AFTER seconds, the others are
                 agreed after QUICK seconds; then trick 1 of game 2. Table 2's trick 1 is
                 disagreed and settled by the organizer after SETTLED_AFTER seconds. Table
                 1's first player draws during game 1 and again during game 2. In round 2
                 each table takes one trick, agreed at once.
    clock        every write is given its time (``Clock``), a few seconds apart, so the
                 seconds to settle are known.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.utils import timezone

from tables.models import Deal
from tables.writes.screen_organizer import settle_trick
from tables.writes.screen_play import game_of, play_card, point_at_card
from tables.writes.silent_channel import draw_stroke
from tests import factories
from tests.screen_factories import deal_at, device_of, key, screen_event
from tournament.models import Event, Player
from tournament.writes.rounds import advance_phase, start_debrief

QUICK = 3
AGREED_AFTER = 40
SETTLED_AFTER = 70
FIRST_DRAWING = "10,10 200,200"
SECOND_DRAWING = "300,300 400,300 500,350"


@dataclass
class Clock:
    at: datetime = field(default_factory=lambda: timezone.now() - timedelta(minutes=20))

    def tick(self, seconds: float = 1) -> datetime:
        self.at += timedelta(seconds=seconds)
        return self.at


def play_cards(event: Event, table: int, clock: Clock) -> tuple[Deal, list[str]]:
    """Every player in turn plays the first card of their hand, a second apart; the deal
    and the cards in the order played."""
    deal = deal_at(event, table)
    cards = []
    while (trick := game_of(deal).trick) is not None and trick.to_play is not None:
        player = Player.objects.get(pk=trick.to_play)
        card = game_of(deal).hands[player.pk][0]
        play_card(
            player=player, card=card, client_key=key(), device=device_of(player), now=clock.tick()
        )
        cards.append(card)
    return deal, cards


def point_all(deal: Deal, card: str, at: datetime, *, first_elsewhere: str | None = None):
    """Every player points at ``card`` at ``at``; with ``first_elsewhere``, the deal's
    second player points there first, a second before."""
    trick = game_of(deal).trick
    assert trick is not None
    players = [Player.objects.get(pk=pk) for pk in deal.seats]
    if first_elsewhere:
        second = players[1]
        point_at_card(
            player=second,
            trick=trick.number,
            card=first_elsewhere,
            client_key=key(),
            device=device_of(second),
            now=at - timedelta(seconds=1),
        )
    done = None
    for player in players:
        done = point_at_card(
            player=player,
            trick=trick.number,
            card=card,
            client_key=key(),
            device=device_of(player),
            now=at,
        )
    return done


def take_agreed(event: Event, table: int, clock: Clock, *, after: int = QUICK, disagree=False):
    """A trick played and agreed on ``after`` seconds after its last card."""
    deal, cards = play_cards(event, table, clock)
    point_all(deal, cards[0], clock.tick(after), first_elsewhere=cards[1] if disagree else None)
    return deal


def draw(event: Event, table: int, points: str, clock: Clock) -> None:
    deal = deal_at(event, table)
    player = Player.objects.get(pk=deal.seats[0])
    draw_stroke(
        player=player,
        kind="red",
        points=points,
        client_key=key(),
        device=device_of(player),
        now=clock.tick(),
    )


def story_event(organizer) -> Event:
    """The story event at its debrief (see Terms)."""
    clock = Clock()
    event = factories.start_rounds(screen_event(owner=organizer, rounds_planned=2))
    draw(event, 1, FIRST_DRAWING, clock)
    take_agreed(event, 1, clock, after=AGREED_AFTER, disagree=True)
    game_one = deal_at(event, 1)
    while Deal.objects.get(pk=game_one.pk).ended_at is None:
        take_agreed(event, 1, clock)
    draw(event, 1, SECOND_DRAWING, clock)
    take_agreed(event, 1, clock)
    deal, cards = play_cards(event, 2, clock)
    at = clock.tick(20)
    for player, card in zip(deal.seats[:2], cards, strict=False):
        holder = Player.objects.get(pk=player)
        point_at_card(
            player=holder, trick=1, card=card, client_key=key(), device=device_of(holder), now=at
        )
    settle_trick(
        event=event,
        table_number=2,
        trick=1,
        card=cards[2],
        by=organizer,
        now=clock.tick(SETTLED_AFTER - 20),
    )
    event = factories.close_current_round(event, organizer)
    event = advance_phase(event=event)
    for table in (1, 2):
        take_agreed(event, table, clock)
    event = factories.close_current_round(event, organizer)
    return start_debrief(event=event)
