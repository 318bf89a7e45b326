"""The one order in which the players at a table are ranked, and names are listed.

Terms:
    table    a numbered place where a group of players sits; a higher number is a better table.
    seat     a player's place at a table for one round.
    round    a timed period of play; a round's result at a table is the number of games
             each player won there.
    game     one deal of Five Tricks; it is won by the player who took the most tricks.
    move up / move down
             after a round the first player(s) in this order go to the next higher table and
             the last one(s) to the next lower table (see tournament.rules.movement).
    spelling in Latin letters
             a name written with the 26 letters of English as a multilingual room reads
             it: accents dropped ("Émile" is "Emile"), and the letters that Unicode does not
             split into a letter and an accent read as their usual Latin form: Ł as L, Ø as
             O, Æ as AE, Œ as OE, Đ and Ð as D, Þ as TH, ß as SS, İ and ı as I. Other
             scripts are transliterated ("王" as "Wang", "Мария" as "Mariya"). The
             transliteration is the `anyascii` library's (pure Python, a table per Unicode
             block), not a table of ours. A character it has no reading for (a private-use
             one) is kept as it is, after every Latin letter.
    folded   the spelling in Latin letters with case ignored: "Łukasz" folds to "lukasz".
    order    more games (or tricks) first; ties go alphabetically by the folded name, and
             the exact spelling decides only when that is still a tie, so the order is
             total and never depends on dict insertion order.

Standard library and anyascii only: this module must stay importable without Django.
"""

import unicodedata
from collections.abc import Mapping
from functools import lru_cache

from anyascii import anyascii

# Characters that show nothing and must not weigh in the order: bidirectional controls,
# zero-width spaces and the like (Unicode's "format" category).
_INVISIBLE = "Cf"


@lru_cache(maxsize=8192)
def latin_spelling(name: str) -> str:
    """The name in Latin letters, case kept (see Terms): "Łukasz Wróbel" is "Lukasz Wrobel".

    NFKD first splits "é" into "e" + an accent and compatibility forms ("ﬁ", full-width
    letters) into plain ones; the accents and the invisible characters are dropped; the
    rest goes through anyascii, which reads "Ł" as "L" and "Þ" as "Th".
    """
    decomposed = unicodedata.normalize("NFKD", name)
    spelled = []
    for char in decomposed:
        if unicodedata.combining(char) or unicodedata.category(char) == _INVISIBLE:
            continue
        latin = anyascii(char)
        # A mark anyascii has no reading for shows nothing on its own; any other character
        # it cannot read stays itself, so two such names never fold to the same text.
        if latin or unicodedata.category(char).startswith("M"):
            spelled.append(latin)
        else:
            spelled.append(char)
    return "".join(spelled)


def name_key(name: str) -> tuple[str, str]:
    """Return (folded name, exact name): THE key for putting names in alphabetical order.

    "Émile" sorts with "emile" (so before "Eva"), "Łukasz" with "lukasz" (before "Marie");
    "zoë" and "Zoe" differ only in the exact spelling, which keeps two distinct players
    from ever comparing equal.
    """
    return latin_spelling(name).casefold(), name


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
