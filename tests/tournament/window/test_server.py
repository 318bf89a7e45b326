"""The child server the window looks after, played by a small Python program: its output
kept, readiness from /healthz, a graceful stop, an unexpected end, and a killed window."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

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


# The window's process: starts its child as the window does, passes on what the child
# says (its pid first), then waits to be killed.
WINDOW = """
import sys, time
from tournament.window.server import ServerProcess
server = ServerProcess([sys.executable, "-c", sys.argv[1], sys.argv[2]], port=1, echo=sys.stdout)
server.start()
print(server.process.pid, flush=True)
time.sleep(60)
"""
# The child server: watches its window as serve does; asked to stop, it writes so down.
WATCHING = """
import pathlib, signal, sys, time
from tournament.serving.parent_watch import SERVER_GRACE_SECONDS, exit_with_parent
def stop(*_):
    pathlib.Path(sys.argv[1]).write_text("asked to stop")
    sys.exit(0)
signal.signal(signal.SIGTERM, stop)
assert exit_with_parent(grace=SERVER_GRACE_SECONDS) is not None
print("watching", flush=True)
time.sleep(60)
"""
REPO = Path(__file__).resolve().parents[3]


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


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL; Windows ends the child at once")
def test_a_killed_window_leaves_no_server_behind(tmp_path):
    stopped = tmp_path / "stopped"
    window = subprocess.Popen(
        [sys.executable, "-c", WINDOW, WATCHING, str(stopped)],
        cwd=REPO,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert window.stdout is not None
    child = int(window.stdout.readline())
    try:
        assert window.stdout.readline() == "watching\n"
        window.kill()  # no handler runs: only the operating system closes its pipe
        window.wait(10)
        _until(stopped.exists)
        assert stopped.read_text() == "asked to stop"
    finally:
        window.stdout.close()
        if not stopped.exists():
            os.kill(child, signal.SIGKILL)
