"""The event's countdown as a value: time left, paused, over, and each step."""

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.properties import examples
from tournament.rules.clock import Clock

PROPERTY = settings(database=None, max_examples=examples(200), deadline=None)
T0 = datetime(2026, 5, 1, 18, 0, tzinfo=UTC)

moments = st.integers(-3600, 3600).map(lambda seconds: T0 + timedelta(seconds=seconds))
# Microseconds too, so rounding up to whole seconds is exercised.
spans = st.integers(0, 7200 * 10**6).map(lambda micro: timedelta(microseconds=micro))
minutes = st.integers(1, 60)


def running(minutes: int = 5) -> Clock:
    return Clock().started(minutes, T0)


@st.composite
def clocks(draw) -> Clock:
    """Any clock the event's fields can hold: none, running, paused (with or without the
    end time it had), in a timed phase or not."""
    ends_at = draw(st.none() | moments)
    paused_remaining = draw(st.none() | spans)
    return Clock(ends_at=ends_at, paused_remaining=paused_remaining, timed=draw(st.booleans()))


# --- reading -------------------------------------------------------------------------------


def test_a_started_clock_counts_down_in_whole_seconds_rounded_up():
    clock = running(5)
    assert clock.is_set
    assert not clock.is_paused
    assert clock.seconds_left(T0) == 300
    assert clock.seconds_left(T0 + timedelta(seconds=299.5)) == 1
    assert not clock.is_over(T0 + timedelta(seconds=299.5))
    assert clock.seconds_left(T0 + timedelta(seconds=300)) == 0
    assert clock.is_over(T0 + timedelta(seconds=300))


def test_time_left_never_goes_negative():
    clock = running(1)
    assert clock.remaining(T0 + timedelta(hours=2)) == timedelta(0)
    assert clock.seconds_left(T0 + timedelta(hours=2)) == 0
    assert clock.is_over(T0 + timedelta(hours=2))


def test_a_clock_never_started_has_no_time_and_is_never_over():
    assert not Clock().is_set
    assert Clock().remaining(T0) is None
    assert Clock().seconds_left(T0) is None
    assert not Clock().is_over(T0)


def test_a_phase_without_a_clock_shows_none_even_with_stored_times():
    untimed = Clock(ends_at=T0, paused_remaining=timedelta(minutes=2), timed=False)
    assert not untimed.is_set
    assert untimed.remaining(T0) is None
    assert not untimed.is_over(T0 + timedelta(hours=1))
    # A stored pause still reads as paused, as the phones' header always showed it.
    assert untimed.is_paused


def test_a_paused_clock_stands_still():
    clock = running(5).paused(T0 + timedelta(minutes=2))
    assert clock.is_paused
    assert clock.is_set
    assert clock.remaining(T0 + timedelta(minutes=2)) == timedelta(minutes=3)
    assert clock.remaining(T0 + timedelta(hours=5)) == timedelta(minutes=3)
    assert not clock.is_over(T0 + timedelta(hours=5))


# --- steps ---------------------------------------------------------------------------------


def test_resuming_runs_on_from_the_time_left():
    later = T0 + timedelta(hours=1)
    clock = running(5).paused(T0 + timedelta(minutes=2)).resumed(later)
    assert not clock.is_paused
    assert clock.remaining(later) == timedelta(minutes=3)
    assert clock.ends_at == later + timedelta(minutes=3)


def test_extending_adds_to_the_end_time_or_to_the_pause():
    assert running(5).extended(60, T0).remaining(T0) == timedelta(minutes=6)
    paused = running(5).paused(T0 + timedelta(minutes=1))
    assert paused.extended(60, T0).paused_remaining == timedelta(minutes=5)


def test_extending_after_time_is_up_counts_from_now():
    later = T0 + timedelta(minutes=10)
    assert running(1).extended(60, later).remaining(later) == timedelta(minutes=1)


def test_ending_means_time_is_up_now_and_clears_a_pause():
    clock = running(5).paused(T0 + timedelta(minutes=1)).ended(T0 + timedelta(minutes=2))
    assert not clock.is_paused
    assert clock.ends_at == T0 + timedelta(minutes=2)
    assert clock.is_over(T0 + timedelta(minutes=2))


def test_stopping_leaves_no_clock():
    assert running(5).paused(T0).stopped() == Clock()


@pytest.mark.parametrize(
    "step",
    [
        lambda clock: clock.paused(T0),
        lambda clock: clock.resumed(T0),
        lambda clock: clock.extended(60, T0),
        lambda clock: clock.ended(T0),
    ],
    ids=["pause", "resume", "extend", "end"],
)
def test_steps_leave_a_clock_that_is_neither_set_nor_paused_alone(step):
    assert step(Clock()) == Clock()
    untimed = Clock(ends_at=T0, timed=False)
    assert step(untimed) == untimed


def test_pausing_twice_keeps_the_first_pause():
    once = running(5).paused(T0 + timedelta(minutes=1))
    assert once.paused(T0 + timedelta(minutes=3)) == once


def test_a_clock_is_a_value_its_steps_return_new_ones():
    clock = running(5)
    clock.paused(T0 + timedelta(minutes=1))
    assert not clock.is_paused
    with pytest.raises(AttributeError):
        clock.ends_at = T0


# --- properties ----------------------------------------------------------------------------


@PROPERTY
@given(clocks(), moments)
def test_time_left_is_none_exactly_when_unset_and_never_negative(clock, now):
    remaining = clock.remaining(now)
    assert (remaining is None) == (not clock.is_set)
    if remaining is not None:
        assert remaining >= timedelta(0)
        seconds = clock.seconds_left(now)
        assert seconds - 1 < remaining.total_seconds() <= seconds
        assert clock.is_over(now) == (seconds == 0)


@PROPERTY
@given(minutes, moments, st.integers(0, 3 * 3600))
def test_a_running_clock_counts_down_second_for_second(length, start, elapsed):
    clock = Clock().started(length, start)
    now = start + timedelta(seconds=elapsed)
    assert clock.seconds_left(now) == max(length * 60 - elapsed, 0)


@PROPERTY
@given(minutes, moments, spans, spans)
def test_a_pause_of_any_length_loses_no_time(length, start, before_pause, pause_length):
    paused_at = start + before_pause
    resumed_at = paused_at + pause_length
    clock = Clock().started(length, start).paused(paused_at)
    left = clock.remaining(paused_at)
    assert clock.remaining(resumed_at) == left
    assert clock.resumed(resumed_at).remaining(resumed_at) == left


@PROPERTY
@given(clocks(), moments, st.integers(1, 600))
def test_extending_a_set_clock_adds_exactly_that_time_unless_it_was_over(clock, now, seconds):
    extended = clock.extended(seconds, now)
    if not clock.is_set:
        assert extended.remaining(now) is None
        return
    added = extended.remaining(now) - clock.remaining(now)
    if clock.is_paused or not clock.is_over(now):
        assert added == timedelta(seconds=seconds)
    else:
        # Time was up: the extra time counts from now.
        assert extended.remaining(now) == timedelta(seconds=seconds)


@PROPERTY
@given(clocks(), moments)
def test_ending_a_set_clock_makes_time_up_now(clock, now):
    ended = clock.ended(now)
    assert ended.is_over(now) == clock.is_set
