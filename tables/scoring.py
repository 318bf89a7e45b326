"""Who won a game, and whether the reported tricks make sense.

Terms:
    table    a numbered place where a group of players sits; a higher number is a better table.
    seat     a player's place at a table for one round; the seated players are the ones who
             can win games there.
    round    a timed period of play; a round's result at a table is the number of games each
             seated player won.
    game     one deal of Five Tricks. Every player holds ``cards_per_player`` cards and each
             trick uses one card from everybody, so a finished game has exactly
             ``cards_per_player`` tricks in total. A game may be stopped unfinished when the
             round's clock runs out; it is still won.
    trick    one card from each player; exactly one player takes it.
    winner   the player with the most tricks; ties are broken by the same order that ranks a
             table (tournament.ordering.rank_players), so an unfinished game also has one.
    move up / move down
             what a round's games decide afterwards (see tournament.movement).

Messages are English marked with gettext_noop and translated through a ``translate``
callable when they are made, as in tables.variants.

Standard library only: this module must stay importable without Django.
"""

from collections.abc import Mapping

from tournament.common.i18n import Translate, gettext_noop, untranslated
from tournament.ordering import name_key, rank_players


def _negative_players(tricks: Mapping[str, int]) -> list[str]:
    return sorted((player for player, count in tricks.items() if count < 0), key=name_key)


def game_winner(tricks: Mapping[str, int]) -> str:
    """Return the winner of one game, finished or not, from the tricks each player took."""
    if not tricks:
        raise ValueError("a game needs at least one player to have a winner")
    negative = _negative_players(tricks)
    if negative:
        names = ", ".join(repr(player) for player in negative)
        raise ValueError(f"negative trick count for {names}")
    return rank_players(tricks)[0]


def check_tricks(
    tricks: Mapping[str, int],
    *,
    cards_per_player: int,
    finished: bool,
    translate: Translate = untranslated,
) -> list[str]:
    """Return what is wrong with a game's trick counts, one sentence each; empty when fine.

    Each message is English marked with gettext_noop and passed through ``translate``
    before its numbers are filled in, so a catalogue finds it (Django callers pass
    gettext). When this returns no problems, game_winner succeeds on the same counts.
    """
    if cards_per_player < 1:
        raise ValueError(f"cards_per_player must be at least 1, got {cards_per_player}")

    def say(message: str, **values: object) -> str:
        return translate(message) % values if values else translate(message)

    problems = [
        say(gettext_noop("%(player)s has a negative number of tricks."), player=player)
        for player in _negative_players(tricks)
    ]
    # A negative count would otherwise hide an excess elsewhere in the sum.
    total = sum(max(count, 0) for count in tricks.values())
    if total > cards_per_player:
        problems.append(
            say(
                gettext_noop(
                    "%(total)d tricks entered, but a game at this table has only %(cards)d."
                ),
                total=total,
                cards=cards_per_player,
            )
        )
    elif finished and total < cards_per_player and cards_per_player == 1:
        problems.append(
            say(
                gettext_noop("A finished game at this table has 1 trick, not %(total)d."),
                total=total,
            )
        )
    elif finished and total < cards_per_player:
        problems.append(
            say(
                gettext_noop("A finished game at this table has %(cards)d tricks, not %(total)d."),
                total=total,
                cards=cards_per_player,
            )
        )
    elif not finished and all(count == 0 for count in tricks.values()):
        problems.append(say(gettext_noop("No trick has been played yet.")))
    return problems
