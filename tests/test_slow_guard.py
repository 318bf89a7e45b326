"""The slow-test guard (tests/conftest.py): the run names every test outside the browser
that took over SLOW_TEST_SECONDS, and only those."""

from __future__ import annotations

from types import SimpleNamespace

from tests.conftest import SLOW_TEST_SECONDS, slow_tests, worker_times


def report(nodeid: str, duration: float, when: str = "call") -> SimpleNamespace:
    return SimpleNamespace(nodeid=nodeid, duration=duration, when=when)


def test_only_slow_calls_outside_the_browser_are_named_slowest_first():
    over = SLOW_TEST_SECONDS + 1
    reports = [
        report("tests/tables/test_a.py::test_quick", 0.2),
        report("tests/tables/test_a.py::test_slow", over),
        report("tests/tournament/test_b.py::test_slower", over + 5),
        report("tests/tables/test_a.py::test_slow_setup", over, when="setup"),
        report("tests/browser/test_c.py::test_long_walk", over * 3),
    ]

    assert slow_tests(reports) == [
        ("tests/tournament/test_b.py::test_slower", over + 5),
        ("tests/tables/test_a.py::test_slow", over),
    ]


def timed(worker: str, start: float, stop: float) -> SimpleNamespace:
    gateway = SimpleNamespace(id=worker)
    return SimpleNamespace(
        node=SimpleNamespace(gateway=gateway), start=start, stop=stop, duration=stop - start
    )


def test_each_workers_busy_time_and_idle_share_of_the_runs_span():
    reports = [timed("gw0", 0, 60), timed("gw0", 60, 100), timed("gw1", 0, 25)]
    reports.append(SimpleNamespace(nodeid="collected", duration=0))  # not a worker's

    assert worker_times(reports) == [("gw0", 100, 0.0), ("gw1", 25, 0.75)]
    assert worker_times([]) == []
