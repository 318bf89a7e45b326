"""Django's WSGI application served by an ASGI server, in a pool of threads, with one hop
between the event loop and a thread each way.

Terms:
    pool      the threads that run Django, one request at a time each, as granian's WSGI
              workers ran it; sized by the serve command's --threads.
    hop       handing work between the event loop and a thread. The request's body is
              read in the loop before the hop, and the whole answer (status, headers and
              body) comes back in one: Django answers whole pages, never streams, so
              nothing is gained by sending it in parts, and every extra hop costs a
              wake-up of the loop (a2wsgi's bridge made three, and halved what the server
              answers a second of its smallest requests).
    too big   a body larger than MAX_BODY_BYTES is refused with 413 before any thread
              runs: above the largest event record an organizer may import
              (tournament.writes.record_file.MAX_RECORD_BYTES) with room for its form.
    shallow   each thread runs requests from a loop of its own, so Django's frames start
              near the bottom of the thread's stack, as in granian's own WSGI threads.
              CPython 3.11 keeps frames in chunks and frees a chunk whenever a call
              returns across its edge: under concurrent.futures' pool, whose worker
              calls a request a few frames deeper, the projector's rendering hovered over
              an edge and paid an mmap and a munmap per call (11.7 ms a page instead of
              7.5, and a high share of system time under load).
"""

from __future__ import annotations

import asyncio
import io
import queue
import sys
import threading
from collections.abc import Awaitable, Callable
from typing import Any

MAX_BODY_BYTES = 80 * 1024 * 1024

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]
Answer = tuple[int, list[tuple[bytes, bytes]], bytes]


def _latin1(text: str) -> str:
    """A str as PEP 3333 carries it: its UTF-8 bytes, read as Latin-1."""
    return text.encode("utf-8").decode("latin-1")


def wsgi_environ(scope: Scope, body: bytes) -> dict[str, Any]:
    """The WSGI environ of an ASGI HTTP scope (PEP 3333)."""
    script_name = _latin1(scope.get("root_path", ""))
    path_info = _latin1(scope["path"])
    if script_name and path_info.startswith(script_name):
        path_info = path_info[len(script_name) :]
    server, port = scope.get("server") or ("localhost", 80)
    environ: dict[str, Any] = {
        "REQUEST_METHOD": scope["method"],
        "SCRIPT_NAME": script_name,
        "PATH_INFO": path_info,
        "QUERY_STRING": scope.get("query_string", b"").decode("latin-1"),
        "SERVER_NAME": server,
        "SERVER_PORT": str(port or 0),
        "SERVER_PROTOCOL": f"HTTP/{scope.get('http_version', '1.1')}",
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": scope.get("scheme", "http"),
        "wsgi.input": io.BytesIO(body),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    if client := scope.get("client"):
        environ["REMOTE_ADDR"], environ["REMOTE_PORT"] = client[0], str(client[1])
    for raw_name, raw_value in scope.get("headers", []):
        name = raw_name.decode("latin-1").lower()
        value = raw_value.decode("latin-1")
        if name == "content-length":
            key = "CONTENT_LENGTH"
        elif name == "content-type":
            key = "CONTENT_TYPE"
        else:
            key = "HTTP_" + name.upper().replace("-", "_")
        if key in environ:
            # HTTP/2 may send the cookies as several headers: Django reads them "; "-joined.
            value = environ[key] + ("; " if key == "HTTP_COOKIE" else ",") + value
        environ[key] = value
    return environ


class ThreadedWSGI:
    """An ASGI application that runs a WSGI one in a pool of threads (see Terms)."""

    def __init__(self, app: Callable[..., Any], *, threads: int) -> None:
        self.app = app
        self.jobs: queue.SimpleQueue = queue.SimpleQueue()
        for number in range(max(1, threads)):
            threading.Thread(target=self._work, name=f"django-{number}", daemon=True).start()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await _lifespan(receive, send)
            return
        if scope["type"] != "http":
            return  # no websockets here
        body = await _body(receive)
        if body is None:
            await _send(send, (413, [(b"content-type", b"text/plain; charset=utf-8")],
                               b"This upload is too big.\n"))  # fmt: skip
            return
        loop = asyncio.get_running_loop()
        answered: asyncio.Future[Answer] = loop.create_future()
        self.jobs.put((wsgi_environ(scope, body), loop, answered))
        await _send(send, await answered)

    def _work(self) -> None:
        """A thread's loop (see Terms: shallow): run each request, hand its answer back."""
        while True:
            environ, loop, answered = self.jobs.get()
            try:
                answer = self._call(environ)
            except BaseException as error:  # the loop's side raises it, as Django's caller
                loop.call_soon_threadsafe(_settle, answered, None, error)
            else:
                loop.call_soon_threadsafe(_settle, answered, answer, None)

    def _call(self, environ: dict[str, Any]) -> Answer:
        started: list[Any] = []
        chunks: list[bytes] = []

        def start_response(status: str, headers: list[tuple[str, str]], exc_info=None):
            if exc_info and started:
                raise exc_info[1].with_traceback(exc_info[2])
            started[:] = [status, headers]
            return chunks.append

        iterable = self.app(environ, start_response)
        try:
            chunks.extend(iterable)
        finally:
            close = getattr(iterable, "close", None)
            if close is not None:
                close()
        status, headers = started
        encoded = [(n.lower().encode("latin-1"), v.encode("latin-1")) for n, v in headers]
        return int(status.split(" ", 1)[0]), encoded, b"".join(chunks)


def _settle(answered: asyncio.Future, answer: Any, error: BaseException | None) -> None:
    if answered.cancelled():
        return  # the client went away while the thread worked
    if error is not None:
        answered.set_exception(error)
    else:
        answered.set_result(answer)


async def _body(receive: Receive) -> bytes | None:
    parts, size = [], 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            return None
        parts.append(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(parts)


async def _send(send: Send, answer: Answer) -> None:
    status, headers, body = answer
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def _lifespan(receive: Receive, send: Send) -> None:
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return
