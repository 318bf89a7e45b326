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
    body      what the client sends after the headers: kept in memory up to SPOOL_BYTES
              (Django's own FILE_UPLOAD_MAX_MEMORY_SIZE), in a temporary file beyond, as
              Django's ASGI handler spools it; so however many requests wait for a
              thread, none holds more than that of its body in memory.
    too big   a body announced (Content-Length) or found larger than MAX_BODY_BYTES is
              refused with 413 before any thread runs: above the largest file the app
              reads, an event record (tournament.writes.record_file.MAX_RECORD_BYTES,
              imported from the command line today), with room for a form around it.
    gone      a client that disconnects before its body is complete: no view runs on the
              part that came (as Django's ASGI handler aborts), nothing is answered.
    failed    an exception out of the WSGI application (Django's own turns its errors into
              pages: this is a fault of the application given): logged with its traceback
              and answered 500; the thread goes on serving.
    first     a free thread takes the oldest action waiting (a POST: a card, a pointing, a
              report; any method but GET and HEAD) before the oldest page or poll: under
              load a player's move waits behind other moves, never behind a queue of page
              renders and polls, which go on in the order they came.
    held      a request handed to the threads and not yet done, even one whose client
              went away meanwhile. At the server's graceful stop (ASGI's lifespan
              shutdown, which granian sends once it has stopped taking requests and
              answered the ones under way) the bridge waits until its threads have
              finished every request they hold, then ends them, before the worker
              exits: a closing round and its backup are never cut off.
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
import contextlib
import io
import itertools
import logging
import queue
import sys
import tempfile
import threading
from collections.abc import Awaitable, Callable
from typing import IO, Any

MAX_BODY_BYTES = 80 * 1024 * 1024
SPOOL_BYTES = 2_621_440  # Django's FILE_UPLOAD_MAX_MEMORY_SIZE by default (2.5 MiB)
PLAIN = [(b"content-type", b"text/plain; charset=utf-8")]
ACT, LOOK, STOP = 0, 1, 2  # the ranks of the threads' queue (see Terms: first)

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]
Answer = tuple[int, list[tuple[bytes, bytes]], bytes]

TOO_BIG: Answer = (413, PLAIN, b"This upload is too big.\n")
FAILED: Answer = (500, PLAIN, b"Server error.\n")

logger = logging.getLogger(__name__)


class TooBig(Exception):
    """The body is over the limit (see Terms: too big)."""


class Gone(Exception):
    """The client disconnected before its body was complete (see Terms: gone)."""


def _latin1(text: str) -> str:
    """A str as PEP 3333 carries it: its UTF-8 bytes, read as Latin-1."""
    return text.encode("utf-8").decode("latin-1")


def wsgi_environ(scope: Scope, body: IO[bytes]) -> dict[str, Any]:
    """The WSGI environ of an ASGI HTTP scope and its body, read whole (PEP 3333)."""
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
        "wsgi.input": body,
        "wsgi.input_terminated": True,  # the whole body is there: read it to its end
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    if client := scope.get("client"):
        environ["REMOTE_ADDR"], environ["REMOTE_PORT"] = client[0], str(client[1])
    for raw_name, raw_value in scope.get("headers", []):
        name = raw_name.decode("latin-1").lower()
        if "_" in name:
            # X_Forwarded_For would land on the proxy's X-Forwarded-For: dropped, as
            # Django's runserver and gunicorn drop it.
            continue
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
    if "CONTENT_LENGTH" not in environ and (size := body.seek(0, io.SEEK_END)):
        environ["CONTENT_LENGTH"] = str(size)  # sent in chunks (or HTTP/2) with no length
    body.seek(0)
    return environ


def announced_length(scope: Scope) -> int | None:
    """The Content-Length the client announced; None when it announced none we can read."""
    for name, value in scope.get("headers", []):
        if name.lower() == b"content-length":
            with contextlib.suppress(ValueError):
                return int(value)
    return None


async def read_body(receive: Receive, *, limit: int, spool: int) -> IO[bytes]:
    """The request's whole body (see Terms: body), at its start; TooBig past ``limit``,
    Gone when the client disconnects first."""
    parts: list[bytes] = []
    spooled: IO[bytes] | None = None
    size = 0
    try:
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                raise Gone
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                raise TooBig
            if spooled is None and size > spool:
                spooled = tempfile.TemporaryFile()  # noqa: SIM115 (the request closes it)
                spooled.writelines(parts)
            if spooled is not None:
                spooled.write(chunk)
            else:
                parts.append(chunk)
            if not message.get("more_body", False):
                break
    except BaseException:
        if spooled is not None:
            spooled.close()
        raise
    if spooled is None:
        return io.BytesIO(b"".join(parts))
    spooled.seek(0)
    return spooled


class ThreadedWSGI:
    """An ASGI application that runs a WSGI one in a pool of threads (see Terms)."""

    def __init__(
        self,
        app: Callable[..., Any],
        *,
        threads: int,
        max_body: int = MAX_BODY_BYTES,
        spool: int = SPOOL_BYTES,
    ) -> None:
        self.app = app
        self.max_body, self.spool = max_body, spool
        self.jobs: queue.PriorityQueue = queue.PriorityQueue()  # (rank, arrival, job)
        self.arrivals = itertools.count()  # in the order they came, within a rank
        self.held = 0  # see Terms: held
        self.idle = threading.Condition()
        self.threads = [
            threading.Thread(target=self._work, name=f"django-{number}", daemon=True)
            for number in range(max(1, threads))
        ]
        for thread in self.threads:
            thread.start()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        if scope["type"] != "http":
            return  # no websockets here
        try:
            if (announced_length(scope) or 0) > self.max_body:
                raise TooBig
            body = await read_body(receive, limit=self.max_body, spool=self.spool)
        except TooBig:
            await _send(send, TOO_BIG)
            return
        except Gone:
            return  # see Terms: gone
        loop = asyncio.get_running_loop()
        answered: asyncio.Future[Answer] = loop.create_future()
        with self.idle:
            self.held += 1
        rank = LOOK if scope.get("method") in ("GET", "HEAD") else ACT  # see Terms: first
        self.jobs.put((rank, next(self.arrivals), (wsgi_environ(scope, body), loop, answered)))
        await _send(send, await answered)

    def _work(self) -> None:
        """A thread's loop (see Terms: shallow): run each request, hand its answer back,
        until finish() ends it."""
        while (job := self.jobs.get()[2]) is not None:
            try:
                self._run(*job)
            finally:
                with self.idle:
                    self.held -= 1
                    self.idle.notify_all()

    def _run(self, environ: dict[str, Any], loop: asyncio.AbstractEventLoop, answered) -> None:
        answer, error = FAILED, None
        try:
            answer = self._call(environ)
        except Exception:  # see Terms: failed
            method, path = environ["REQUEST_METHOD"], environ["PATH_INFO"]
            logger.exception("The site failed on %s %s.", method, path)
        except BaseException as raised:  # the loop's side raises it, as Django's caller
            error = raised
        finally:
            environ["wsgi.input"].close()
        with contextlib.suppress(RuntimeError):  # the loop closed: nobody is waiting
            loop.call_soon_threadsafe(_settle, answered, answer, error)

    def _call(self, environ: dict[str, Any]) -> Answer:
        started: list[Any] = []
        chunks: list[bytes] = []

        def start_response(status: str, headers: list[tuple[str, str]], exc_info=None):
            # Nothing is sent before the application returns (see Terms: hop), so a
            # start_response with exc_info may always replace the status and headers.
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

    def finish(self) -> None:
        """Wait until every request held is done, then end the threads (see Terms: held);
        the bridge serves no request after it."""
        with self.idle:
            self.idle.wait_for(lambda: self.held == 0)
        for _thread in self.threads:
            self.jobs.put((STOP, next(self.arrivals), None))
        for thread in self.threads:
            thread.join()

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                # In a thread of its own: the loop hands the last answers back meanwhile.
                await asyncio.get_running_loop().run_in_executor(None, self.finish)
                await send({"type": "lifespan.shutdown.complete"})
                return


def _settle(answered: asyncio.Future, answer: Any, error: BaseException | None) -> None:
    if answered.cancelled():
        return  # the client went away while the thread worked
    if error is not None:
        answered.set_exception(error)
    else:
        answered.set_result(answer)


async def _send(send: Send, answer: Answer) -> None:
    status, headers, body = answer
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
