"""How the 28 cards of Five Tricks are dealt at a table, and what that makes of a game.

Terms:
    deal              the dealer shuffles and gives out cards one at a time, starting with the
                      player on their left and going round the table, the dealer last. At a
                      table of 4 or more players the whole deck is dealt; see *small table*
                      for fewer.
    hand              the cards one player holds after the deal. Dealing one at a time keeps
                      hands within one card of each other: when the deck does not divide
                      evenly, the first ``28 % N`` players from the dealer's left get one card
                      more than the others (5 players: 6, 6, 6, 5, 5).
    trick             one card from each player who still holds one; exactly one player takes it.
    short last trick  the last trick of a game in which some players have already run out of
                      cards: only the players with a card left play it, the others sit it out.
                      It is won like any other trick.
    small table       2 or 3 players. The whole deck would give hands of 14 or 10 cards, a game
                      twice as long as at any other table. Instead each player gets 7 cards,
                      the hand of a four-player table, and the cards left over stay face down,
                      out of play: 7 full tricks and no short one. A lone player (a table
                      emptied by absences) is dealt the same way.
    table             a numbered card table of an event; a higher number is a better table.
    seat              a player's place at a table for one round; the seated players are dealt in,
                      so a table's size in a round is its number of seats.
    round             a timed period of play; its seats fix each table's size until it ends.
    game              one deal, played until every dealt card has been played; a finished game
                      therefore has as many tricks as the largest hand. The round's clock may
                      cut a game off earlier, with fewer tricks. Most tricks wins.
    move up / move down
                      after a round players change tables (see tournament.rules.movement), and
                      latecomers join the lowest table, so a table's size, and with it the
                      deal, can change from one round to the next.

Standard library only: this module must stay importable without Django.
"""

from __future__ import annotations

import operator

from tables.rules.variants import DECK_SIZE

SMALL_TABLE_MAX = 3
SMALL_TABLE_HAND = DECK_SIZE // (SMALL_TABLE_MAX + 1)


def _checked_players(players: int) -> int:
    count = operator.index(players)
    if not 1 <= count <= DECK_SIZE:
        # More than 28 players cannot all get a card, so no deal exists.
        raise ValueError(f"players must be between 1 and {DECK_SIZE}, got {count}")
    return count


def deals_whole_deck(players: int) -> bool:
    """Whether a table of ``players`` deals all 28 cards (4 or more players)."""
    return _checked_players(players) > SMALL_TABLE_MAX


def hand_sizes(players: int) -> tuple[int, ...]:
    """Cards each player gets, from the dealer's left round to the dealer.

    4 players: (7, 7, 7, 7); 5: (6, 6, 6, 5, 5); 6: (5, 5, 5, 5, 4, 4); 7: (4,) * 7;
    a small table: 7 each, e.g. 3 players (7, 7, 7) with 7 cards out of play.
    """
    count = _checked_players(players)
    if count <= SMALL_TABLE_MAX:
        return (SMALL_TABLE_HAND,) * count
    smaller, larger_hands = divmod(DECK_SIZE, count)
    return (smaller + 1,) * larger_hands + (smaller,) * (count - larger_hands)


def cards_left_out(players: int) -> int:
    """Cards that stay face down, out of play: none unless the table is small."""
    return DECK_SIZE - sum(hand_sizes(players))


def tricks_per_game(players: int) -> int:
    """Tricks in a finished game: the largest hand, since every dealt card gets played.

    4 players: 7, 5 players: 6, 6 players: 5, 7 or 8 players: 4; a small table: 7.
    """
    return max(hand_sizes(players))


def players_in_last_trick(players: int) -> int:
    """How many players still hold a card for the last trick of a finished game."""
    hands = hand_sizes(players)
    return hands.count(max(hands))


def short_last_trick(players: int) -> bool:
    """Whether some players have no card left for the last trick (5, 6, 8 players ...)."""
    return players_in_last_trick(players) < _checked_players(players)
