"""The server the window looks after: a child process, watched from the window's process.

Terms:
    child      `fivetricks serve --no-window --no-browser --port P ...`: in the double-click
               app its own program again (sys.executable is the app), installed or in a
               checkout `python -m tournament.cli`. Its output (the set-up's steps, the
               banner, warnings, a traceback) arrives through one pipe, is copied to the
               window's own output when it has one (a terminal), and its last TAIL_LINES
               lines are kept to show.
    ready      the child answers GET /healthz on 127.0.0.1 with 200: the port is bound and
               the database answers. Only then does the window say "ready".
    stop       as Ctrl+C in the child's terminal (server_stop.send_stop_signal, which the
               console's "Stop the server" also sends): granian stops listening and each
               worker finishes the requests it serves. On POSIX the child runs in a process
               group of its own, so a Ctrl+C in the window's terminal reaches the window
               alone, which passes it on once; on Windows it shares the console, which
               sends the Ctrl+C to every process on it. STOP_GRACE seconds after the signal
               a child still running is killed.
    orphan     the child's standard input is a pipe the window holds open, and the child
               watches it (tournament.serving.parent_watch, Terms: parent's end): when the
               window's process ends, however it ends, the child is asked to stop as
               Ctrl+C asks it, on every platform. A killed window never leaves a server
               behind.
"""

from __future__ import annotations

import collections
import contextlib
import os
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from typing import IO, Any

from tournament.serving import server_stop
from tournament.serving.parent_watch import PARENT_PIPE_VARIABLE, SERVER_GRACE_SECONDS

TAIL_LINES = 12
HEALTH_INTERVAL = 0.25  # seconds between two health checks while preparing
STOP_GRACE = SERVER_GRACE_SECONDS  # a closing round's backup may take a while


def own_program() -> list[str]:
    """The command line that starts `fivetricks` as this process was started (see Terms:
    child)."""
    if getattr(sys, "frozen", False):
        return [sys.executable]
    return [sys.executable, "-m", "tournament.cli"]


def child_command(port: int, arguments: Sequence[str]) -> list[str]:
    """The child's command line (see Terms: child); ``arguments`` are serve's other options."""
    return [
        *own_program(),
        "serve",
        "--no-window",
        "--no-browser",
        "--port",
        str(port),
        *arguments,
    ]


def answers_health(port: int, *, timeout: float = 1.0) -> bool:
    """Whether 127.0.0.1:``port`` answers /healthz with 200 (see Terms: ready)."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=timeout) as got:
            return got.status == 200
    except (OSError, urllib.error.URLError):
        return False


class ServerProcess:
    """One child server (see Terms), its output and its readiness, read from any thread."""

    def __init__(self, command: Sequence[str], *, port: int, echo: IO[str] | None = None):
        self.command = list(command)
        self.port = port
        self.echo = echo
        self.lines: collections.deque[str] = collections.deque(maxlen=TAIL_LINES)
        self.ready = threading.Event()
        self.stopping = False
        self.stopped_at: float | None = None
        self.started_at = time.monotonic()
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start the child and the threads that read its output and wait until it is ready."""
        environment = dict(os.environ, PYTHONUNBUFFERED="1", PYTHONIOENCODING="utf-8")
        environment[PARENT_PIPE_VARIABLE] = "stdin"  # see Terms: orphan
        options: dict[str, Any] = {}  # Popen keywords of several types
        if sys.platform != "win32":
            options["process_group"] = 0
        self.started_at = time.monotonic()
        self.process = subprocess.Popen(
            self.command,
            # Never written to: its end, when this process ends, is the child's signal.
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            env=environment,
            **options,
        )
        threading.Thread(target=self._read_output, daemon=True).start()
        threading.Thread(target=self._wait_until_ready, daemon=True).start()

    def _read_output(self) -> None:
        assert self.process is not None
        for raw in self.process.stdout or ():
            line = raw.decode("utf-8", errors="replace").rstrip()
            if line.strip():
                self.lines.append(line)
            if self.echo is not None:
                with contextlib.suppress(OSError, ValueError):
                    self.echo.write(line + "\n")
                    self.echo.flush()

    def _wait_until_ready(self) -> None:
        while self.exit_code() is None and not self.stopping:
            if answers_health(self.port):
                self.ready.set()
                return
            time.sleep(HEALTH_INTERVAL)

    def exit_code(self) -> int | None:
        """The child's exit status once it has ended, else None."""
        return None if self.process is None else self.process.poll()

    def last_step(self) -> str:
        """The child's newest line of output, e.g. "Preparing the database…"."""
        return self.lines[-1].strip(" =") if self.lines else ""

    def stop(self, *, signalled: bool = False) -> None:
        """Ask the child to stop gracefully (see Terms: stop), once. ``signalled``: the
        Ctrl+C already reached it (Windows' console sends it to every process on it)."""
        if self.stopping or self.exit_code() is not None:
            return  # asked already, or ended: an ended child's state stays as it ended
        self.stopping = True
        self.stopped_at = time.monotonic()
        if signalled and sys.platform == "win32":
            return
        assert self.process is not None
        with contextlib.suppress(OSError):
            server_stop.send_stop_signal(self.process.pid)

    def kill_when_overdue(self, *, grace: float = STOP_GRACE) -> None:
        """Kill a child still running ``grace`` seconds after stop() (see Terms: stop)."""
        overdue = self.stopped_at is not None and time.monotonic() - self.stopped_at > grace
        if overdue and self.process is not None and self.process.poll() is None:
            self.process.kill()
