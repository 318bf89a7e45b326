"""Small helpers for events whose cards are on screens: play a trick, point, agree, and
at an event with a scoring clause play a game out and point at its winner."""

from __future__ import annotations

import itertools

from tables.models import Deal
from tables.rules import screen_play as screen_play_rules
from tables.writes.game_claims import point_at_winner
from tables.writes.screen_play import game_of, play_card, point_at_card
from tables.writes.silent_channel import draw_stroke, make_gesture
from tests import factories
from tournament.models import Event, Player

_keys = itertools.count(1)


def key(prefix: str = "k") -> str:
    return f"{prefix}-{next(_keys)}"


def screen_event(*, owner, players: int = 10, tables: int = 2, **fields) -> Event:
    return factories.seated_event(
        owner=owner, players=players, tables=tables, cards="screens", **fields
    )


def scoring_event(*, owner, players: int = 10, tables: int = 2, **fields) -> Event:
    """A screen event that uses a scoring clause: table 1 wins a game with the fewest
    tricks, the other tables with the most (tables.reads.game_claims)."""
    event = screen_event(owner=owner, players=players, tables=tables, **fields)
    event.tables.filter(number=1).update(fewest_wins=True)
    return event


def short_hands(monkeypatch, cards: int = 2) -> None:
    """Deal ``cards`` cards to each player instead of the source's hands, so a game is
    that many tricks: for tests that play many whole games. Nothing else changes (the
    deal, turns and pointing are the same rules; a game ends when the hands are empty)."""
    monkeypatch.setattr(screen_play_rules, "hand_sizes", lambda players: (cards,) * players)


def deal_at(event: Event, table_number: int) -> Deal:
    return Deal.objects.get(round__event=event, table__number=table_number, ended_at__isnull=True)


def device_of(player: Player) -> str:
    return f"dev{player.pk}"


def play_trick(event: Event, table_number: int) -> tuple[Deal, dict[int, str]]:
    """Every player whose turn it is plays the first card of their hand; returns the deal
    and each player's card."""
    deal = deal_at(event, table_number)
    cards = {}
    while (trick := game_of(deal).trick) is not None and trick.to_play is not None:
        player = Player.objects.get(pk=trick.to_play)
        card = game_of(deal).hands[player.pk][0]
        play_card(player=player, card=card, client_key=key(), device=device_of(player))
        cards[player.pk] = card
    return deal, cards


def everyone_points(deal: Deal, card: str):
    trick = game_of(deal).trick
    assert trick is not None
    done = None
    for player in Player.objects.filter(pk__in=deal.seats):
        done = point_at_card(
            player=player, trick=trick.number, card=card, client_key=key(), device=device_of(player)
        )
    return done


def draw_and_gesture(deal: Deal) -> None:
    """The deal's first player draws two strokes; its second says "yes"."""
    first, second = (Player.objects.get(pk=pk) for pk in deal.seats[:2])
    for points in ("10,10 200,200", "300,300 400,300 500,350"):
        draw_stroke(
            player=first, kind="red", points=points, client_key=key(), device=device_of(first)
        )
    make_gesture(player=second, kind="yes", client_key=key(), device=device_of(second))


def play_out(event: Event, table_number: int) -> Deal:
    """Every trick of the table's game in play, each taken by its leader's card (so the
    first leader takes them all); at an event with a scoring clause the deal then waits
    for its players to name the winner."""
    deal = deal_at(event, table_number)
    while game_of(deal).trick is not None:
        _deal, cards = play_trick(event, table_number)
        trick = game_of(deal).trick
        assert trick is not None
        everyone_points(deal, cards[trick.leader])
    return deal


def everyone_claims(deal: Deal, winner: int, *, but: dict[int, int] | None = None):
    """Every player of the deal points at ``winner`` as the game's winner (those in
    ``but`` at the player it names): the last claim's outcome."""
    done = None
    for player in Player.objects.filter(pk__in=deal.seats).order_by("pk"):
        done = point_at_winner(
            player=player,
            winner_id=(but or {}).get(player.pk, winner),
            client_key=key("claim"),
            device=device_of(player),
        )
    return done
