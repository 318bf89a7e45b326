"""How wide a player's name is on the projector, measured without a browser.

Terms:
    em        the unit of width: the height of the letters. A name is measured in em, so
              its width holds at any letter size.
    advance   how far one character moves the pen, in em: a narrow ``i`` about a quarter,
              a wide ``W`` nearly one; a Chinese, Japanese or Korean character a square,
              a combining accent nothing.
    name width the name's width on one line: the sum of its characters' advances, with
              a margin for semibold faces a little wider than the ones measured.
    two-line width
              the narrowest line that holds the name on two lines, where a browser may
              break it: at a space (which then takes no room) or after a hyphen. A name
              with neither cannot wrap.

tournament.rules.board_layout reads these widths to choose its columns and letter sizes.

Standard library only: this module must stay importable without Django.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

# Advance widths in em of a semibold sans that is not condensed (Arial's bold metrics;
# Helvetica, Segoe UI and Liberation Sans are close). The projector asks for a condensed
# face first, about a fifth narrower, but a venue's laptop may have none: a name measured
# here fits in either.
_WIDTHS_BY_CHARS = {
    0.28: "ijlI .,:;!|'’/",
    0.33: "ft-()[]",
    0.39: "r",
    0.5: "z",
    0.56: "acesvxykJ0123456789",
    0.61: "bdghnopquFLTZ",
    0.67: "EPSVXY",
    0.72: "ABCDHKNRU&",
    0.78: "wGOQ",
    0.83: "M",
    0.89: "m",
    0.94: "W",
}
_CHAR_WIDTH = {char: width for width, chars in _WIDTHS_BY_CHARS.items() for char in chars}
_OTHER_WIDTH = 0.72  # a letter of another alphabet: as wide as a capital
_WIDE_WIDTH = 1.0  # Chinese, Japanese or Korean: a square
WIDTH_MARGIN = 1.05  # for semibold faces a little wider than Arial's bold


def _char_width(char: str) -> float:
    if char in _CHAR_WIDTH:
        return _CHAR_WIDTH[char]
    # Accents, and the invisible isolates (U+2068, U+2069) that keep a name's direction
    # to itself in a chart, take no room.
    if unicodedata.combining(char) or unicodedata.category(char) == "Cf":
        return 0.0
    if unicodedata.east_asian_width(char) in "WF":
        return _WIDE_WIDTH
    # An accented letter is as wide as the letter without its accent.
    return _CHAR_WIDTH.get(unicodedata.normalize("NFD", char)[0], _OTHER_WIDTH)


@lru_cache(maxsize=4096)
def name_width(name: str) -> float:
    """The name's width on one line, in em."""
    return sum(_char_width(char) * WIDTH_MARGIN for char in name)


@lru_cache(maxsize=4096)
def two_line_width(name: str) -> float:
    """The narrowest line that holds the name on two lines, in em.

    A browser breaks a line at a space (which then takes no room) or after a hyphen; a
    name without either cannot wrap, and needs its whole width.
    """
    widths = [_char_width(char) * WIDTH_MARGIN for char in name]
    whole = sum(widths)
    best = whole
    before = 0.0
    for index, char in enumerate(name):
        if char == " ":
            best = min(best, max(before, whole - before - widths[index]))
        before += widths[index]
        if char == "-" and index < len(name) - 1:
            best = min(best, max(before, whole - before))
    return best
