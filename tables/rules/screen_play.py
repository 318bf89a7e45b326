"""Five Tricks with the cards on screens: the deck, the deal, whose turn it is, and when a
trick is taken. Nothing here knows a table's variant: the app never judges a card.

Terms:
    card         one of the 28 cards, written as its rank then its suit's initial: "7H" is
                 the 7 of hearts, "AS" the ace of spades (``card_code``).
    seats        the players of a deal in the order they sit, going round to the left: the
                 player after the last one is the first again. The writes give the table's
                 seats in the one order of names (tournament.rules.ordering).
    dealer       game k's dealer is the k-th seat (the first after the last, and so on): the
                 deal passes to the left from one game to the next, as at a real table.
    deal         the source's deal (tables.rules.deal): the shuffled deck given out one card
                 at a time from the dealer's left, the dealer last; the whole deck at 4 or
                 more players, 7 cards each at 2 or 3.
    leader       who plays the first card of a trick: the dealer's left neighbour for the
                 first trick, then whoever took the trick before. A leader with no card left
                 (a short last trick) passes the lead to the next player to the left who
                 holds one.
    turn         a trick is played from its leader going left, one card each, by every
                 player who held a card when it began. Turns are the same at every table, so
                 keeping them reveals nothing; which card may be played is never checked.
    pointing     once every card of a trick is down, each player of the deal points at the
                 card they think wins it, and may change their mind.
    agreement    every player of the deal points at the same card: the trick goes to the
                 player who played it, who leads the next. Only agreement, or the organizer
                 settling, takes a trick.
    disagreement at some moment, the players' latest pointings named different cards.
    over         a game is over when every dealt card is played and every trick taken.

Standard library only: this module must stay importable without Django.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from tables.rules.deal import hand_sizes
from tournament.rules.cards import RANKS, Suit

P = TypeVar("P", bound=Hashable)

SUIT_LETTERS: dict[Suit, str] = {suit: suit.value[0].upper() for suit in Suit}
_SUITS_BY_LETTER = {letter: suit for suit, letter in SUIT_LETTERS.items()}
DECK: tuple[str, ...] = tuple(rank + SUIT_LETTERS[suit] for suit in Suit for rank in RANKS)


def card_code(rank: str, suit: Suit) -> str:
    """ "7H" for the 7 of hearts."""
    if rank not in RANKS:
        raise ValueError(f"not a rank of Five Tricks: {rank!r}")
    return rank + SUIT_LETTERS[Suit(suit)]


def is_card(code: object) -> bool:
    return isinstance(code, str) and code in DECK


def card_rank(code: str) -> str:
    if not is_card(code):
        raise ValueError(f"not a card: {code!r}")
    return code[:-1]


def card_suit(code: str) -> Suit:
    if not is_card(code):
        raise ValueError(f"not a card: {code!r}")
    return _SUITS_BY_LETTER[code[-1]]


def sorted_hand(cards: Sequence[str]) -> list[str]:
    """A hand as a player holds it: by suit (hearts, diamonds, clubs, spades), then A..7."""
    return sorted(cards, key=DECK.index)


def dealer_index(game_number: int, players: int) -> int:
    """Index in the seats of game ``game_number``'s dealer (see Terms: dealer)."""
    if game_number < 1 or players < 1:
        raise ValueError("games are numbered from 1 and a deal needs a player")
    return (game_number - 1) % players


@dataclass(frozen=True)
class Dealt(Generic[P]):
    """One game's deal: who dealt, who leads the first trick, and every hand."""

    dealer: P
    leader: P
    hands: dict[P, tuple[str, ...]]


def deal_game(seats: Sequence[P], *, game_number: int, seed: int) -> Dealt[P]:
    """Shuffle with ``seed`` and deal game ``game_number`` to ``seats`` (see Terms)."""
    if len(set(seats)) != len(seats):
        raise ValueError("a player sits once at a table")
    count = len(seats)
    sizes = hand_sizes(count)
    deck = list(DECK)
    random.Random(seed).shuffle(deck)
    dealer = dealer_index(game_number, count)
    # From the dealer's left round to the dealer: hand_sizes gives the sizes in that order.
    order = [seats[(dealer + 1 + i) % count] for i in range(count)]
    hands: dict[P, list[str]] = {player: [] for player in order}
    cards = iter(deck)
    for turn in range(max(sizes)):
        for player, size in zip(order, sizes, strict=True):
            if turn < size:
                hands[player].append(next(cards))
    return Dealt(
        dealer=seats[dealer],
        leader=order[0],
        hands={player: tuple(sorted_hand(hand)) for player, hand in hands.items()},
    )


@dataclass(frozen=True)
class Trick(Generic[P]):
    """The trick being played or pointed at."""

    number: int
    leader: P
    players: tuple[P, ...]  # who plays it, from the leader going left
    plays: tuple[tuple[P, str], ...]  # (player, card), in the order played
    pointing: dict[P, str] = field(default_factory=dict)  # each player's latest pointing

    @property
    def to_play(self) -> P | None:
        """Whose turn it is, or None once every card is down."""
        played = {player for player, _card in self.plays}
        return next((player for player in self.players if player not in played), None)

    @property
    def complete(self) -> bool:
        return self.to_play is None

    def owner(self, card: str) -> P | None:
        """Who played ``card`` into this trick, or None."""
        return next((player for player, played in self.plays if played == card), None)


@dataclass(frozen=True)
class Game(Generic[P]):
    """Where a game stands, replayed from its deal, plays and taken tricks."""

    seats: tuple[P, ...]
    hands: dict[P, tuple[str, ...]]  # the cards each player still holds
    tricks: dict[P, int]  # tricks taken so far
    trick: Trick[P] | None  # None when the game is over
    taken: int  # tricks taken so far, all players together

    @property
    def over(self) -> bool:
        return self.trick is None


def replay(
    seats: Sequence[P],
    *,
    hands: Mapping[P, Sequence[str]],
    leader: P,
    plays: Sequence[tuple[int, P, str]],
    taken: Mapping[int, P],
    pointing: Mapping[P, str] | None = None,
) -> Game[P]:
    """Where a game stands. ``plays`` are (trick number, player, card) in the order they
    were made; ``taken`` maps each taken trick's number (1, 2, ... in order) to who took
    it; ``pointing`` is each player's latest pointing at the current trick.

    Stored facts only ever come from the writes, which check each play against the state
    this returns (``play_problem``), so an inconsistent history is a ValueError here.
    """
    seats = tuple(seats)
    held = {player: list(hands[player]) for player in seats}
    tricks = dict.fromkeys(seats, 0)
    by_trick: dict[int, list[tuple[P, str]]] = {}
    for number, player, card in plays:
        by_trick.setdefault(number, []).append((player, card))
    numbers = sorted(taken)
    if numbers != list(range(1, len(numbers) + 1)):
        raise ValueError(f"tricks are taken in order, not {numbers}")
    lead = leader
    for number in [*numbers, len(numbers) + 1]:
        if not any(held.values()):
            if by_trick.get(number):
                raise ValueError(f"trick {number} was played after the last card")
            return Game(seats, _frozen(held), tricks, None, len(numbers))
        lead = _holding_leader(seats, held, lead)
        start = seats.index(lead)
        order = tuple(
            seats[(start + i) % len(seats)]
            for i in range(len(seats))
            if held[seats[(start + i) % len(seats)]]
        )
        trick = Trick(number, lead, order, tuple(by_trick.get(number, ())))
        for player, card in trick.plays:
            if card not in held[player]:
                raise ValueError(f"{player!r} played {card} without holding it")
            held[player].remove(card)
        if number not in taken:
            if trick.plays and [p for p, _c in trick.plays] != list(order[: len(trick.plays)]):
                raise ValueError(f"trick {number} was played out of turn")
            shown = dict(pointing or {}) if trick.complete else {}
            return Game(seats, _frozen(held), tricks, _with_pointing(trick, shown), len(numbers))
        lead = taken[number]
        tricks[lead] += 1
    raise AssertionError("unreachable: the loop returns at the first untaken trick")


def _frozen(held: Mapping[P, list[str]]) -> dict[P, tuple[str, ...]]:
    return {player: tuple(cards) for player, cards in held.items()}


def _with_pointing(trick: Trick[P], pointing: Mapping[P, str]) -> Trick[P]:
    cards = {card for _player, card in trick.plays}
    kept = {player: card for player, card in pointing.items() if card in cards}
    return Trick(trick.number, trick.leader, trick.players, trick.plays, kept)


def _holding_leader(seats: tuple[P, ...], held: Mapping[P, list[str]], lead: P) -> P:
    start = seats.index(lead)
    for i in range(len(seats)):
        player = seats[(start + i) % len(seats)]
        if held[player]:
            return player
    raise ValueError("nobody holds a card")


class PlayProblem:
    """Why a play is not taken. None of them is about which card: see Terms: turn."""

    OVER = "over"  # the game has ended
    POINTING = "pointing"  # every card of the trick is down; players are pointing
    NOT_YOUR_TURN = "turn"  # another player plays before you
    NOT_HELD = "not-held"  # the card is not in the hand (a stale screen)
    SAT_OUT = "sat-out"  # no card left for this trick


def play_problem(game: Game[P], player: P, card: str) -> str | None:
    """What stops ``player`` playing ``card`` now, as a ``PlayProblem``; None to play it."""
    trick = game.trick
    if trick is None:
        return PlayProblem.OVER
    if player not in trick.players:
        return PlayProblem.SAT_OUT
    if trick.complete:
        return PlayProblem.POINTING
    if card not in game.hands.get(player, ()):
        return PlayProblem.NOT_HELD
    if trick.to_play != player:
        return PlayProblem.NOT_YOUR_TURN
    return None


def agreed_taker(trick: Trick[P], pointers: Sequence[P]) -> P | None:
    """Who takes a complete trick by agreement (see Terms), or None while any of
    ``pointers`` has not pointed or points elsewhere."""
    if not trick.complete or not pointers:
        return None
    cards = {trick.pointing.get(player) for player in pointers}
    if len(cards) != 1:
        return None
    (card,) = cards
    return None if card is None else trick.owner(card)


def disagrees(trick: Trick[P]) -> bool:
    """Whether the players' pointing at a complete trick names more than one card."""
    return len(set(trick.pointing.values())) > 1


def ever_disagreed(pointings: Sequence[tuple[P, str]]) -> bool:
    """Whether, at any moment, the players' latest pointings at a trick named more than
    one card; ``pointings`` are (player, card) in the order made. One player changing
    their mind alone is not a disagreement."""
    latest: dict[P, str] = {}
    for player, card in pointings:
        latest[player] = card
        if len(set(latest.values())) > 1:
            return True
    return False
