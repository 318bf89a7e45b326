"""The child server the window looks after, played by a small Python program: its output
kept, readiness from /healthz, a graceful stop, and an unexpected end."""

from __future__ import annotations

import socket
import sys
import time

import pytest

from tournament.window import can_show
from tournament.window.server import ServerProcess, child_command, own_program

# Says two lines, answers /healthz, and ends with status 0 on SIGINT as granian does.
CHILD = """
import http.server, signal, sys
print("Preparing the database…")
class Health(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200 if self.path == "/healthz" else 404)
        self.end_headers()
        self.wfile.write(b"ok")
    def log_message(self, *args):
        pass
server = http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), Health)
signal.signal(signal.SIGINT, lambda *_: sys.exit(0))
print("Five Tricks is running")
server.serve_forever()
"""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _until(condition, seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "waited too long"
        time.sleep(0.05)


@pytest.fixture
def server():
    port = _free_port()
    process = ServerProcess([sys.executable, "-c", CHILD, str(port)], port=port)
    yield process
    if process.exit_code() is None:
        process.process.kill()
        process.process.wait()


def test_the_child_is_ready_once_it_answers_and_stops_gracefully_when_asked(server):
    server.start()
    assert server.ready.wait(20)
    _until(lambda: server.last_step() == "Five Tricks is running")
    assert list(server.lines) == ["Preparing the database…", "Five Tricks is running"]
    server.stop()
    _until(lambda: server.exit_code() is not None)
    assert server.exit_code() == 0
    assert server.stopping


def test_an_unexpected_end_keeps_the_last_lines_and_is_never_ready():
    failing = "import sys; print('Error: That port is already in use.'); sys.exit(1)"
    process = ServerProcess([sys.executable, "-c", failing], port=_free_port())
    process.start()
    _until(lambda: process.exit_code() is not None and process.lines)
    assert process.exit_code() == 1
    assert process.last_step() == "Error: That port is already in use."
    process.stop()  # ended already: nothing to ask, and it did not end as asked
    assert not process.stopping
    assert not process.ready.is_set()


def test_the_child_serves_in_the_terminal_without_a_browser_on_the_windows_port():
    command = child_command(8123, ["--workers", "2"])
    assert command[: len(own_program())] == own_program()
    assert command[len(own_program()) :] == [
        *("serve", "--no-window", "--no-browser", "--port", "8123", "--workers", "2"),
    ]
    assert own_program()[1:] == ["-m", "tournament.cli"]  # not frozen: Python runs it


def test_a_window_needs_a_display_on_linux_but_not_elsewhere():
    assert not can_show({}, "linux")
    assert can_show({"DISPLAY": ":0"}, "linux") == can_show({}, "win32")
    assert can_show({"WAYLAND_DISPLAY": "wayland-0"}, "linux") == can_show({}, "darwin")
