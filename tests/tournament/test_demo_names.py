"""The rehearsal's names: the same for a seed, distinct, some accented."""

from __future__ import annotations

from tournament.management.commands.demo_event import rehearsal_names


def test_names_are_deterministic_distinct_and_some_accented():
    names = rehearsal_names(40, 7)
    assert names == rehearsal_names(40, 7)
    assert len(set(names)) == 40
    assert any(not name.isascii() for name in names)
