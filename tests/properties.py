"""How many examples a Hypothesis property tries.

Terms:
    full number  the examples a test asks for in `make test` (its own `max_examples`).
    check run    `make check`, which loads the "check" profile (tests/conftest.py): every
                 property tries at most the profile's few examples, so the whole suite but
                 the browser runs in a couple of minutes; `make test` tries the full number.
"""

from __future__ import annotations

from hypothesis import settings


def examples(full: int) -> int:
    """``full``, or the check profile's fewer examples when `make check` runs."""
    if settings.get_current_profile_name() == "check":
        # The default profile is always set (hypothesis makes it at import).
        assert settings.default is not None
        return min(full, settings.default.max_examples)
    return full
