"""The site as `manage.py serve` serves it, live channel included, for the browser tests
that need the channel: tournament.serving.asgi's routing (the streams to
tournament.serving.live_channel, everything else to Django's WSGI application in a pool of
threads, tournament.serving.bridge), over plain HTTP/1.1 on loopback, in a thread of the
test's process, on the test's database.

Terms:
    server      a small asyncio HTTP/1.1 server, one request per connection (each answer
                ends by closing it, so a stream's body needs no length): enough for a
                browser on loopback. pytest-django's live server is WSGI and cannot hold a
                stream (its /stream/ answers 204 and the screens poll).
    held        ``hold_streams``: as behind a proxy that buffers ``text/event-stream``, a
                stream's headers pass and its events never do.
    database    the test's own (tests/conftest.py: a file, even on SQLite), which every
                thread opens for itself, as a server's threads do; each request's thread
                and, at the end, the live channel's two threads close theirs, so the test
                database can be emptied once the test is over.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Iterator
from http import HTTPStatus
from typing import Any
from urllib.parse import unquote

from django.core.wsgi import get_wsgi_application
from django.db import connections

from tournament.serving import live_channel
from tournament.serving.bridge import ThreadedWSGI

THREADS = 4


class ChannelServer:
    """tournament.serving.asgi's application, served over HTTP/1.1 (see Terms)."""

    def __init__(self, *, hold_streams: bool = False) -> None:
        self.hold_streams = hold_streams
        django = get_wsgi_application()

        def closing(environ: dict, start_response: Any) -> Any:
            try:
                return django(environ, start_response)
            finally:
                connections.close_all()

        self.site = ThreadedWSGI(closing, threads=THREADS)
        self.stream_path = live_channel.stream_path()
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._run, name="channel-server", daemon=True)
        self.port = 0

    @property
    def url(self) -> str:
        return f"http://localhost:{self.port}"

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        server = self.loop.run_until_complete(asyncio.start_server(self._connected, "127.0.0.1", 0))
        self.port = server.sockets[0].getsockname()[1]
        self.ready.set()
        self.loop.run_forever()
        server.close()
        self.loop.run_until_complete(server.wait_closed())
        for task in asyncio.all_tasks(self.loop):
            task.cancel()  # the streams and the watcher
        self.loop.run_until_complete(asyncio.sleep(0.05))
        self.loop.close()

    async def application(self, scope: dict, receive: Any, send: Any) -> None:
        if found := self.stream_path.fullmatch(scope["path"]):
            if self.hold_streams:
                send = _holding(send)
            await live_channel.stream(scope, receive, send, found["token"])
        else:
            await self.site(scope, receive, send)

    async def _connected(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        try:
            head = await reader.readuntil(b"\r\n\r\n")
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
            writer.close()
            return
        request, *lines = head.decode("latin-1").rstrip("\r\n").split("\r\n")
        method, target, _version = request.split(" ", 2)
        headers = [
            (name.strip().lower().encode("latin-1"), value.strip().encode("latin-1"))
            for name, _colon, value in (line.partition(":") for line in lines)
        ]
        length = int(dict(headers).get(b"content-length", b"0"))
        body = await reader.readexactly(length) if length else b""
        path, _mark, query = target.partition("?")
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": method,
            "scheme": "http",
            "path": unquote(path),
            "raw_path": path.encode("latin-1"),
            "query_string": query.encode("latin-1"),
            "root_path": "",
            "headers": headers,
            "client": writer.get_extra_info("peername")[:2],
            "server": ("127.0.0.1", self.port),
        }
        asked = False

        async def receive() -> dict:
            nonlocal asked
            if not asked:
                asked = True
                return {"type": "http.request", "body": body, "more_body": False}
            await reader.read()  # nothing more comes until the browser closes
            return {"type": "http.disconnect"}

        async def send(message: dict) -> None:
            if message["type"] == "http.response.start":
                status = message["status"]
                known = {code.value: code.phrase for code in HTTPStatus}
                reason = known.get(status, "Answer")  # 286: stop polling
                lines = [f"HTTP/1.1 {status} {reason}".encode("latin-1")]
                lines += [name + b": " + value for name, value in message["headers"]]
                lines.append(b"connection: close")
                writer.write(b"\r\n".join(lines) + b"\r\n\r\n")
            else:
                writer.write(message.get("body", b""))
            await writer.drain()

        with contextlib.suppress(ConnectionError):
            await self.application(scope, receive, send)
        writer.close()

    def start(self) -> ChannelServer:
        self.thread.start()
        self.ready.wait(10)
        return self

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        # The channel's threads keep their connections, as a server's do: closed here.
        live_channel.close_connections()


def _holding(send: Any) -> Any:
    """``send`` as a buffering proxy passes it on: the headers, never an event."""

    async def held(message: dict) -> None:
        if message["type"] == "http.response.start":
            await send(message)

    return held


@contextlib.contextmanager
def channel_server(*, hold_streams: bool = False) -> Iterator[ChannelServer]:
    server = ChannelServer(hold_streams=hold_streams).start()
    try:
        yield server
    finally:
        server.stop()
