"""The event's countdown, kept on the server as an end time (or the time left while
paused), so every screen shows the same clock and a reload changes nothing.

Terms:
    clock    read and stepped through ``EventClock.clock`` (tournament.rules.clock), from
             the event's ``clock_ends_at`` and ``clock_paused_remaining``; it runs only in
             the clocked phases (tournament.models.phases.CLOCKED_PHASES).
    time up  the clock of a clocked phase has reached zero.

A mixin of tournament.models.event.Event, whose fields it reads and writes: the event's
module keeps its rows, this one its clock.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

from tournament.models.phases import CLOCKED_PHASES
from tournament.rules.clock import Clock


class EventClock:
    """The clock methods of Event (see Terms)."""

    clock_ends_at: datetime | None
    clock_paused_remaining: timedelta | None
    phase: str

    @property
    def clock(self) -> Clock:
        """The countdown as the stored fields and the phase have it now."""
        return Clock(
            ends_at=self.clock_ends_at,
            paused_remaining=self.clock_paused_remaining,
            timed=self.phase in CLOCKED_PHASES,
        )

    def _keep_clock(self, clock: Clock) -> None:
        self.clock_ends_at = clock.ends_at
        self.clock_paused_remaining = clock.paused_remaining

    @property
    def has_clock(self) -> bool:
        return self.clock.is_set

    @property
    def clock_is_paused(self) -> bool:
        return self.clock.is_paused

    def clock_seconds_left(self, now: datetime | None = None) -> int | None:
        return self.clock.seconds_left(now or timezone.now())

    def time_is_up(self, now: datetime | None = None) -> bool:
        return self.clock.is_over(now or timezone.now())

    def start_clock(self, minutes: int, now: datetime | None = None) -> None:
        self._keep_clock(self.clock.started(minutes, now or timezone.now()))

    def stop_clock(self) -> None:
        self._keep_clock(self.clock.stopped())

    def pause_clock(self, now: datetime | None = None) -> None:
        self._keep_clock(self.clock.paused(now or timezone.now()))

    def resume_clock(self, now: datetime | None = None) -> None:
        self._keep_clock(self.clock.resumed(now or timezone.now()))

    def add_clock_time(self, seconds: int = 60, now: datetime | None = None) -> None:
        self._keep_clock(self.clock.extended(seconds, now or timezone.now()))

    def end_clock_now(self, now: datetime | None = None) -> None:
        self._keep_clock(self.clock.ended(now or timezone.now()))
