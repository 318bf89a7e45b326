"""The one order in which the players at a table are ranked.

Terms:
    table    a numbered place where a group of players sits; a higher number is a better table.
    seat     a player's place at a table for one round.
    round    a timed period of play; a round's result at a table is the number of games
             each player won there.
    game     one deal of Five Tricks; it is won by the player who took the most tricks.
    move up / move down
             after a round the first player(s) in this order go to the next higher table and
             the last one(s) to the next lower table (see tournament.rules.movement).
    order    more games (or tricks) first; ties go alphabetically with accents and case
             ignored, and the exact spelling decides only when that is still a tie, so the
             order is total and never depends on dict insertion order.

Standard library only: this module must stay importable without Django.
"""

import unicodedata
from collections.abc import Mapping


def name_key(name: str) -> tuple[str, str]:
    """Return (accent-and-case-folded name, exact name) for alphabetical tie-breaking.

    "Émile" sorts with "emile" (so before "Eva"); "zoë" and "Zoe" differ only in the
    exact spelling, which keeps two distinct players from ever comparing equal.
    """
    decomposed = unicodedata.normalize("NFKD", name)
    # NFKD splits "é" into "e" + a combining accent, so dropping the combining marks
    # leaves the letter players expect it to be alphabetised under.
    stripped = "".join(char for char in decomposed if not unicodedata.combining(char))
    return stripped.casefold(), name


def rank_players(games: Mapping[str, int]) -> list[str]:
    """Rank players by count (games or tricks) descending, then by ``name_key``.

    This is THE order of a table: movement and game winners both use it, so a tie is
    always broken the same way wherever it shows up.
    """
    negative = [player for player, count in games.items() if count < 0]
    if negative:
        names = ", ".join(repr(player) for player in sorted(negative, key=name_key))
        raise ValueError(f"negative count for {names}")
    return sorted(games, key=lambda player: (-games[player], name_key(player)))
