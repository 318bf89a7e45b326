"""A process watched by its parent's pipe (tournament.serving.parent_watch): asked to stop
as Ctrl+C asks when the pipe ends, ended after its grace if it does not, and free to
exit by itself meanwhile. Played by small Python programs."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tournament.serving.parent_watch import PARENT_PIPE_VARIABLE, exit_with_parent

REPO = Path(__file__).resolve().parents[3]
# Watches its standard input as the window's child does, says so, then waits; a SIGTERM
# (what the watch sends) ends it with status 0, unless told to ignore it.
CHILD = """
import signal, sys, time
from tournament.serving.parent_watch import exit_with_parent
if sys.argv[1] == "ignore":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
else:
    signal.signal(signal.SIGTERM, lambda *_: (print("asked to stop", flush=True), sys.exit(0)))
assert exit_with_parent(grace=float(sys.argv[2])) is not None
print("watching", flush=True)
time.sleep(float(sys.argv[3]))
"""
posix_only = pytest.mark.skipif(sys.platform == "win32", reason="Windows ends it at once")


def _child(mode: str, *, grace: float = 30.0, sleep: float = 60.0) -> subprocess.Popen[str]:
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, mode, str(grace), str(sleep)],
        cwd=REPO,
        env={**os.environ, PARENT_PIPE_VARIABLE: "stdin"},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    assert child.stdout.readline() == "watching\n"
    return child


def _ended(child: subprocess.Popen[str]) -> tuple[int, str, str]:
    """Its exit status and what it said after "watching", its pipe left as it is."""
    child.wait(timeout=20)
    assert child.stdout is not None
    assert child.stderr is not None
    said = (child.returncode, child.stdout.read(), child.stderr.read())
    for pipe in (child.stdin, child.stdout, child.stderr):
        if pipe is not None:
            pipe.close()
    return said


@posix_only
def test_the_end_of_the_parent_s_pipe_asks_the_process_to_stop_as_ctrl_c_does():
    child = _child("stop")
    assert child.stdin is not None
    child.stdin.close()  # what the operating system does when the window's process ends
    assert _ended(child) == (0, "asked to stop\n", "")


@posix_only
def test_a_process_that_does_not_stop_ends_after_its_grace():
    child = _child("ignore", grace=0.3)
    assert child.stdin is not None
    child.stdin.close()
    assert _ended(child)[0] == 1


def test_a_process_that_ends_by_itself_while_watched_exits_cleanly():
    # The watching thread waits in a read of the pipe: the interpreter's exit must not
    # trip over it (sys.stdin's reader would hold a lock the exit needs).
    child = _child("stop", sleep=0.1)
    assert _ended(child) == (0, "", "")


def test_no_parent_is_watched_without_the_window_s_pipe():
    assert exit_with_parent(environ={}) is None
    assert exit_with_parent(environ={PARENT_PIPE_VARIABLE: "another"}) is None
    assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL  # nothing was set up
