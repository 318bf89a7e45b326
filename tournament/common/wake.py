"""Waking this process's live channels when a write commits.

Terms:
    sleeper   a callable registered by a live channel (tables.views.live_channel: its
              watchers), called from any thread to make it read the versions at once.
    wake      what a write does after its transaction commits (``wake_after_commit``):
              the screens in this process hear of it now instead of at their next tick.
              Screens held by another process or server still hear of it at their own
              watcher's next tick, since every watcher reads the database.

Plumbing: no rule and no model here, so writes below the views can call it.
"""

from __future__ import annotations

from collections.abc import Callable

from django.db import transaction

_sleepers: list[Callable[[], None]] = []


def register_sleeper(sleeper: Callable[[], None]) -> None:
    if sleeper not in _sleepers:
        _sleepers.append(sleeper)


def wake_now() -> None:
    for sleeper in list(_sleepers):
        sleeper()


def wake_after_commit() -> None:
    """Wake the sleepers once the current transaction commits (at once outside one)."""
    if _sleepers:
        transaction.on_commit(wake_now)
