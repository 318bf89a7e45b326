"""A worker's graceful stop reaches its open streams, which would otherwise hold it forever.

Terms:
    stop signal  SIGINT or SIGTERM to a worker: Ctrl+C in serve's terminal, the console's
                 and the window's Stop (tournament.serving.server_stop) reach it so,
                 through granian's main process, and an orphan sends it to itself
                 (tournament.serving.parent_watch). Granian then stops taking connections
                 and waits until every answer under way has ended, a stream's too; but a
                 screen's stream (tournament.serving.live_channel) never ends by itself:
                 one open screen held the stop until its browser went away.
    stopped      once a stop signal came, every stream of the worker hears that its
                 client is gone (``http.disconnect``, what its receive says when a screen
                 closes): the live channel ends it as it ends any stream, the stop goes on,
                 and the page reconnects to whatever server answers next. The requests
                 Django serves end as they would (tournament.serving.bridge, Terms: held).
    beside       the handler is set beside the server's own, never instead of it: the
                 server's (granian's, in the event loop) still runs, woken by the loop's
                 wakeup file descriptor as before, or called by this one where the server
                 set a plain handler (Windows). A signal nobody handled (no server that
                 stops gracefully) is left as it was.
"""

from __future__ import annotations

import asyncio
import signal
import threading
from collections.abc import Awaitable, Callable
from typing import Any

Receive = Callable[[], Awaitable[dict[str, Any]]]
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
GONE = {"type": "http.disconnect"}

_stopped: dict[asyncio.AbstractEventLoop, asyncio.Event] = {}


def watch_for_stop() -> bool:
    """In the worker's event loop, once it serves (ASGI lifespan startup): have a stop
    signal end its streams (see Terms); whether it is watched. Only the main thread may set
    a signal handler: elsewhere (a test's server in a thread) nothing is watched."""
    loop = asyncio.get_running_loop()
    if loop in _stopped:
        return True
    if threading.current_thread() is not threading.main_thread():
        return False
    stopped = _stopped[loop] = asyncio.Event()
    for number in STOP_SIGNALS:
        server_s = signal.getsignal(number)
        if callable(server_s):  # see Terms: beside
            signal.signal(number, _beside(server_s, loop, stopped))
    return True


def _beside(server_s: Callable[..., Any], loop: asyncio.AbstractEventLoop, stopped) -> Any:
    def handler(number: int, frame: Any) -> None:
        loop.call_soon_threadsafe(stopped.set)
        server_s(number, frame)

    return handler


def until_stop(receive: Receive) -> Receive:
    """``receive`` as a stream sees it: what the client says, or that it is gone once the
    worker stops (see Terms: stopped)."""
    stopped = _stopped.get(asyncio.get_running_loop())
    if stopped is None:
        return receive

    async def receiving() -> dict[str, Any]:
        if stopped.is_set():
            return GONE
        said = asyncio.ensure_future(receive())
        stop = asyncio.ensure_future(stopped.wait())
        try:
            done, _pending = await asyncio.wait({said, stop}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for waiting in (said, stop):
                waiting.cancel()  # nothing once done; else no longer waited for
        return said.result() if said in done else GONE

    return receiving
