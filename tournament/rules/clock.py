"""The event's countdown as a value: how much time is left, whether it is paused or over.

Terms:
    clock      the countdown of a timed phase (study, practice, a round). It is kept on the
               server as an end time, or as the time left while paused, so every screen shows
               the same countdown and a reload changes nothing. The event stores both
               (``clock_ends_at``, ``clock_paused_remaining``); ``Clock`` is built from them.
    timed      whether the event's phase keeps a clock at all (``timed``); setup, between
               rounds and the debrief do not, so a clock left over from a round reads as none.
    set        the phase is timed and its clock was started: it is running or paused
               (``is_set``). Only a set clock has time left.
    paused     the clock stands still with ``paused_remaining`` left (``is_paused``); the end
               time it had is kept but not read until it resumes.
    time left  what a set clock shows, never negative (``remaining``), in whole seconds
               rounded up (``seconds_left``), so a screen shows 0:00 only when time is up.
    over       a set clock with no time left: time is up (``is_over``).
    extended   a clock given more time: added to what is left while paused, to the end time
               while running, and, once time is up, counted from now.

A ``Clock`` never changes: each step (``started``, ``paused``, ``extended``...) returns the
clock after it, which the event stores. Every moment is an aware datetime the caller passes
in (``now``); nothing here reads the time itself, so tests can stop it.

Standard library only: this module must stay importable without Django.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta

_NO_TIME = timedelta(0)


@dataclass(frozen=True)
class Clock:
    """One event's countdown, from its stored fields and whether its phase is timed."""

    ends_at: datetime | None = None
    paused_remaining: timedelta | None = None
    timed: bool = True

    @property
    def is_set(self) -> bool:
        return self.timed and (self.ends_at is not None or self.paused_remaining is not None)

    @property
    def is_paused(self) -> bool:
        # Read from the stored field alone, as the screens always have: a pause outlives
        # the phase it was taken in until a step clears it.
        return self.paused_remaining is not None

    def remaining(self, now: datetime) -> timedelta | None:
        """Time left, never negative; None when the clock is not set."""
        # is_set spelled out, so that the type checker sees the end time is there.
        if not self.timed:
            return None
        if self.paused_remaining is not None:
            return max(self.paused_remaining, _NO_TIME)
        if self.ends_at is None:
            return None
        return max(self.ends_at - now, _NO_TIME)

    def seconds_left(self, now: datetime) -> int | None:
        """Whole seconds left, rounded up; None when the clock is not set."""
        remaining = self.remaining(now)
        if remaining is None:
            return None
        # Round up so the screens show 0:00 only when time is really up.
        return int(-(-remaining.total_seconds() // 1))

    def is_over(self, now: datetime) -> bool:
        """Whether time is up: the clock is set and has nothing left."""
        remaining = self.remaining(now)
        return remaining is not None and remaining <= _NO_TIME

    # --- steps: each returns the clock after it ------------------------------------------

    def started(self, minutes: int, now: datetime) -> Clock:
        """Running, ``minutes`` from now."""
        return replace(self, ends_at=now + timedelta(minutes=minutes), paused_remaining=None)

    def stopped(self) -> Clock:
        """No clock at all."""
        return replace(self, ends_at=None, paused_remaining=None)

    def paused(self, now: datetime) -> Clock:
        """Standing still with the time left now; unchanged unless set and running."""
        if not self.is_set or self.is_paused:
            return self
        return replace(self, paused_remaining=self.remaining(now))

    def resumed(self, now: datetime) -> Clock:
        """Running again with the time it had left; unchanged unless paused."""
        if self.paused_remaining is None:
            return self
        return replace(self, ends_at=now + self.paused_remaining, paused_remaining=None)

    def extended(self, seconds: int, now: datetime) -> Clock:
        """``seconds`` more: on a paused clock, on the end time of a running one, and from
        now once time is up; unchanged when the clock is not set and not paused."""
        extra = timedelta(seconds=seconds)
        if self.paused_remaining is not None:
            return replace(self, paused_remaining=self.paused_remaining + extra)
        # Not paused, so set means timed with an end time.
        if not self.timed or self.ends_at is None:
            return self
        # After time is up, "one more minute" means a minute from now.
        return replace(self, ends_at=max(self.ends_at, now) + extra)

    def ended(self, now: datetime) -> Clock:
        """Time up now; unchanged when the clock is not set."""
        if not self.is_set:
            return self
        return replace(self, ends_at=now, paused_remaining=None)
