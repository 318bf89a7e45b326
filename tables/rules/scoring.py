"""Who won a game, and whether the reported tricks make sense.

Terms:
    table    a numbered place where a group of players sits; a higher number is a better table.
    seat     a player's place at a table for one round; the seated players are the ones who
             can win games there.
    round    a timed period of play; a round's result at a table is the number of games each
             seated player won.
    game     one deal of Five Tricks (tables.rules.deal): the whole deck at 4 or more players, 7
             cards each at 2 or 3. It ends when every dealt card has been played, so a
             finished game has exactly ``tricks_per_game(players)`` tricks in total, as many
             as the largest hand: 7 at 2 to 4 players, 6 at 5, 5 at 6, 4 at 7. A game may be
             stopped unfinished when the round's clock runs out, with fewer tricks; it is
             still won.
    trick    one card from each player who still holds one; exactly one player takes it.
             The last trick may be short: players without a card sit it out.
    winner   the player with the most tricks; ties are broken by the same order that ranks a
             table (tournament.rules.ordering.rank_players), so an unfinished game also has one.
             At a *fewest wins* table (tables.rules.variants, misère) it is the player with the
             fewest tricks, finished or cut off by the clock; a tie for the fewest goes by
             the same alphabetical rule (accents and capitals ignored), so one tie rule
             serves the whole tournament. A player who took no trick can win there.
    move up / move down
             what a round's games decide afterwards (see tournament.rules.movement).

Messages are English marked with gettext_noop and translated through a ``translate``
callable when they are made, as in tables.rules.variants.

Standard library only: this module must stay importable without Django.
"""

from collections.abc import Mapping

from tables.rules.deal import tricks_per_game
from tournament.common.i18n import Translate, gettext_noop, untranslated
from tournament.rules.ordering import name_key, rank_players


def _negative_players(tricks: Mapping[str, int]) -> list[str]:
    return sorted((player for player, count in tricks.items() if count < 0), key=name_key)


def game_winner(tricks: Mapping[str, int], *, fewest_wins: bool = False) -> str:
    """Return the winner of one game, finished or not, from the tricks each player took:
    the most tricks, or with ``fewest_wins`` the fewest; ties alphabetically."""
    if not tricks:
        raise ValueError("a game needs at least one player to have a winner")
    negative = _negative_players(tricks)
    if negative:
        names = ", ".join(repr(player) for player in negative)
        raise ValueError(f"negative trick count for {names}")
    if fewest_wins:
        return min(tricks, key=lambda player: (tricks[player], name_key(player)))
    return rank_players(tricks)[0]


def check_tricks(
    tricks: Mapping[str, int],
    *,
    players: int,
    finished: bool,
    translate: Translate = untranslated,
) -> list[str]:
    """Return what is wrong with a game's trick counts, one sentence each; empty when fine.

    ``players`` is the table's size in the game's round (its seats), which fixes the deal:
    a finished game has exactly ``tricks_per_game(players)`` tricks, an unfinished one at
    most that many and at least one. A size outside 1..28 is a ValueError.

    Each message is English marked with gettext_noop and passed through ``translate``
    before its numbers are filled in, so a catalogue finds it (Django callers pass
    gettext). When this returns no problems, game_winner succeeds on the same counts.
    """
    most = tricks_per_game(players)

    def say(message: str, **values: object) -> str:
        return translate(message) % values if values else translate(message)

    problems = [
        say(gettext_noop("%(player)s has a negative number of tricks."), player=player)
        for player in _negative_players(tricks)
    ]
    # A negative count would otherwise hide an excess elsewhere in the sum.
    total = sum(max(count, 0) for count in tricks.values())
    if total > most:
        problems.append(
            say(
                gettext_noop(
                    "%(total)d tricks entered, but a game at this table has only %(tricks)d."
                ),
                total=total,
                tricks=most,
            )
        )
    elif finished and total < most and most == 1:
        problems.append(
            say(
                gettext_noop("A finished game at this table has 1 trick, not %(total)d."),
                total=total,
            )
        )
    elif finished and total < most:
        problems.append(
            say(
                gettext_noop("A finished game at this table has %(tricks)d tricks, not %(total)d."),
                total=total,
                tricks=most,
            )
        )
    elif not finished and all(count == 0 for count in tricks.values()):
        problems.append(say(gettext_noop("No trick has been played yet.")))
    return problems
