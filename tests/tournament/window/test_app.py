"""The window's decisions, with a stand-in for Tk and for the child: which phase it shows,
when it asks before stopping, and that a signal or a close ends it once the server ended."""

from __future__ import annotations

import threading

import pytest

from tournament.window import app
from tournament.window.screen import Phase


class Child:
    def __init__(self):
        self.code = None
        self.ready = threading.Event()
        self.stopping = False
        self.stops = []
        self.port = 8123
        self.started_at = 0.0
        self.lines = []

    def exit_code(self):
        return self.code

    def stop(self, *, signalled=False):
        self.stops.append(signalled)
        self.stopping = True

    def last_step(self):
        return ""

    def kill_when_overdue(self):
        pass


class Screen:
    def __init__(self, answer):
        self.answer = answer
        self.asked = 0
        self.shown = []

    def ask_to_stop(self):
        self.asked += 1
        return self.answer

    def show(self, phase, shown):
        self.shown.append(phase)

    def show_address(self, url, warning):
        self.address = url


class Root:
    destroyed = False

    def destroy(self):
        self.destroyed = True

    def after(self, ms, callback):
        pass


@pytest.fixture
def window(monkeypatch):
    monkeypatch.setattr(app, "read_address", lambda port: (f"http://192.0.2.2:{port}/", None))
    opened = []
    monkeypatch.setattr(app.webbrowser, "open", lambda link: opened.append(link) or True)
    monkeypatch.setattr(app, "sign_in_link", lambda port: f"http://127.0.0.1:{port}/sign-in/")

    def make(answer=True, browser=True):
        controller = app.Controller(Root(), Screen(answer), Child(), browser=browser)
        controller.opened = opened
        return controller

    return make


def test_the_phase_follows_the_child(window):
    controller = window()
    assert controller.phase() is Phase.PREPARING
    controller.server.ready.set()
    assert controller.phase() is Phase.READY
    controller.server.stopping = True
    assert controller.phase() is Phase.STOPPING
    controller.server.code = 0
    assert controller.phase() is Phase.STOPPED
    unasked = window()
    unasked.server.code = 1
    assert unasked.phase() is Phase.FAILED
    by_the_console = window()
    by_the_console.server.code = 0  # its "Stop the server" button: stopped, not failed
    assert by_the_console.phase() is Phase.STOPPED


def test_the_browser_opens_once_when_first_ready_and_the_address_shows(window):
    controller = window()
    controller.tick()
    assert controller.opened == []
    controller.server.ready.set()
    controller.tick()
    controller.tick()
    assert controller.opened == ["http://127.0.0.1:8123/sign-in/"]
    assert controller.window.address == "http://192.0.2.2:8123/"
    assert controller.window.shown == [Phase.PREPARING, Phase.READY, Phase.READY]


def test_closing_asks_and_a_no_keeps_serving(window):
    controller = window(answer=False)
    controller.server.ready.set()
    controller.close()
    controller.stop()
    assert controller.window.asked == 2
    assert controller.server.stops == []
    assert not controller.closing


def test_closing_confirmed_stops_and_the_window_goes_once_the_server_ended(window):
    controller = window(answer=True)
    controller.close()
    assert controller.server.stops == [False]
    controller.tick()
    assert not controller.root.destroyed  # still stopping: the window says so
    controller.server.code = 0
    controller.tick()
    assert controller.root.destroyed
    assert controller.exit_status == 0


def test_a_signal_closes_without_asking(window):
    controller = window(answer=False)
    controller.signalled(app.signal.SIGTERM, None)
    assert controller.window.asked == 0
    assert controller.closing
    assert controller.server.stops == [False]


def test_an_unexpected_end_is_the_exit_status(window):
    controller = window()
    controller.server.code = 3
    controller.tick()
    controller.close()  # nothing to ask: the server is gone
    controller.tick()
    assert controller.root.destroyed
    assert controller.exit_status == 3
