"""re.search for a test that needs the match: a missing pattern fails the test, naming the
pattern, where re.search's None would fail it later with a TypeError (and the type checker
would ask about None at every use)."""

from __future__ import annotations

import re


def search(pattern: str | re.Pattern[str], text: str, flags: int = 0) -> re.Match[str]:
    found = re.search(pattern, text, flags)
    assert found is not None, f"{pattern!r} is not in the text"
    return found
