"""Reading numbers that people (or their browsers) send in query strings and form fields.

Terms: a *positive int* is a whole number >= 1 written with ASCII digits. Anything else,
including Unicode digits such as "²" that str.isdigit() accepts but int() may refuse,
reads as None, so a view answers with a message, never a server error.
"""

from __future__ import annotations

import re

_ASCII_DIGITS = re.compile(r"[0-9]{1,9}")


def positive_int(value: object) -> int | None:
    if not isinstance(value, str):
        return None
    # str.strip() drops more than int() tolerates (e.g. "\x1f"), so parse what was checked.
    digits = value.strip()
    if not _ASCII_DIGITS.fullmatch(digits):
        return None
    number = int(digits)
    return number if number >= 1 else None
