"""When the console may stop the laptop's server, and how it stops it: the main process's
PID from `serve`, never on a hosted server, the laptop's own addresses, and SIGINT sent a
moment after the answer."""

from __future__ import annotations

import signal
import sys
import threading

import pytest

from tournament.serving import server_stop
from tournament.serving.server_stop import SERVER_PID_VARIABLE, is_loopback, stoppable_pid

MAIN = 4321
LAPTOP = {SERVER_PID_VARIABLE: str(MAIN)}


def test_a_server_started_by_serve_on_a_laptop_is_stoppable():
    assert stoppable_pid(LAPTOP, MAIN) == MAIN


@pytest.mark.parametrize(
    "environ",
    [
        {},
        {SERVER_PID_VARIABLE: ""},
        {SERVER_PID_VARIABLE: "not a pid"},
        {SERVER_PID_VARIABLE: "0"},
        {SERVER_PID_VARIABLE: "-1"},
    ],
)
def test_a_server_not_started_by_serve_is_not(environ):
    assert stoppable_pid(environ, MAIN) is None


def test_a_pid_that_is_not_this_worker_s_parent_is_never_signalled():
    """A variable left over in a shell (runserver, a test run) names another process."""
    assert stoppable_pid(LAPTOP, MAIN + 1) is None


@pytest.mark.parametrize(
    "hosted",
    [
        {"DATABASE_URL": "postgres://five:tricks@db/five"},
        {"FIVETRICKS_BEHIND_PROXY": "1"},
        {"FIVETRICKS_BEHIND_PROXY": "yes"},
        {"FIVETRICKS_PUBLIC_URL": "https://tricks.example.org"},
    ],
)
def test_a_hosted_server_is_never_stoppable_from_a_page(hosted):
    assert stoppable_pid({**LAPTOP, **hosted}, MAIN) is None


@pytest.mark.parametrize(
    "laptop",
    [
        {"FIVETRICKS_BEHIND_PROXY": "0"},
        {"FIVETRICKS_PUBLIC_URL": "http://192.168.1.20:8000"},
        {"DATABASE_URL": ""},
    ],
)
def test_a_laptop_setting_keeps_it_stoppable(laptop):
    assert stoppable_pid({**LAPTOP, **laptop}, MAIN) == MAIN


@pytest.mark.parametrize("address", ["127.0.0.1", "127.0.1.1", "::1", "::ffff:127.0.0.1"])
def test_the_laptop_s_own_addresses_are_loopback(address):
    assert is_loopback(address)


@pytest.mark.parametrize(
    "address", ["192.168.1.30", "10.8.0.2", "0.0.0.0", "::ffff:192.168.1.30", "", "localhost"]
)
def test_other_addresses_are_not(address):
    assert not is_loopback(address)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_the_stop_signal_is_sigint_to_the_main_process(monkeypatch):
    sent = []
    monkeypatch.setattr(server_stop.os, "kill", lambda pid, sig: sent.append((pid, sig)))

    server_stop.send_stop_signal(MAIN)

    assert sent == [(MAIN, signal.SIGINT)]


def test_stop_soon_signals_once_after_the_delay(monkeypatch):
    sent = []
    signalled = threading.Event()

    def fake_signal(pid):
        sent.append(pid)
        signalled.set()

    monkeypatch.setattr(server_stop, "send_stop_signal", fake_signal)

    timer = server_stop.stop_soon(MAIN, delay=0.2)
    assert sent == []  # not before the delay: the page goes out first
    assert timer.daemon
    timer.join(timeout=5)

    assert signalled.is_set()
    assert sent == [MAIN]
