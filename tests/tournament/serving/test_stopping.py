"""A stop signal ends a worker's open streams (tournament.serving.stopping), beside the
server's own handler, never instead of it. Played in small Python programs: a signal's
handler is the whole process's."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
# A worker's loop: the server's handler set as granian sets it (in the loop, or a plain
# one as on Windows), the stop watched, a stream's receive waiting for its client, and
# SIGTERM sent. Prints what the stream heard, then whether the server's handler ran.
WORKER = """
import asyncio, os, signal, sys
from tournament.serving.stopping import until_stop, watch_for_stop

async def main():
    loop = asyncio.get_running_loop()
    server_stopping = asyncio.Event()
    if sys.argv[1] == "loop":
        loop.add_signal_handler(signal.SIGTERM, server_stopping.set)
    else:
        signal.signal(signal.SIGTERM, lambda *_: loop.call_soon_threadsafe(server_stopping.set))
    assert watch_for_stop()

    async def client_says():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def client_waits():
        await asyncio.Event().wait()

    print((await until_stop(client_says)())["type"])  # before the stop: the client's words
    waiting = asyncio.ensure_future(until_stop(client_waits)())
    await asyncio.sleep(0)
    os.kill(os.getpid(), signal.SIGTERM)
    print((await asyncio.wait_for(waiting, 10))["type"])
    print((await until_stop(client_waits)())["type"])  # a stream opened after it
    await asyncio.wait_for(server_stopping.wait(), 10)
    print("the server stops too")

asyncio.run(main())
"""

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="SIGTERM to itself")


def _run(code: str, *arguments: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", code, *arguments],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


@posix_only
@pytest.mark.parametrize("server_s_handler", ["loop", "plain"])
def test_a_stop_signal_tells_every_stream_its_client_is_gone_and_the_server_still_stops(
    server_s_handler,
):
    assert _run(WORKER, server_s_handler) == [
        "http.request",
        "http.disconnect",
        "http.disconnect",
        "the server stops too",
    ]


def test_a_signal_no_server_handles_is_left_alone_and_streams_hear_their_client():
    code = """
import asyncio, signal
from tournament.serving.stopping import until_stop, watch_for_stop

async def main():
    async def client_says():
        return {"type": "http.request"}

    assert until_stop(client_says) is client_says  # not watched yet: as it is
    assert watch_for_stop()
    print(signal.getsignal(signal.SIGTERM) == signal.SIG_DFL)
    print((await until_stop(client_says)())["type"])

asyncio.run(main())
"""
    assert _run(code) == ["True", "http.request"]
