"""A small HTTP/1.1 client on asyncio streams for the benchmarks, standard library only:
keep-alive connections, bodies by Content-Length or chunked, nothing else.

Terms:
    connection   one keep-alive TCP connection, as one phone's browser holds one.
    closed loop  N connections each sending its next request as soon as the last one is
                 answered: how many requests a second the server can take (throughput).
    stream       a server-sent events stream (a screen's live channel) read on its own
                 connection, message by message.

It connects to loopback only, and every loop is bounded in time and in count.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

LOOPBACK = {"127.0.0.1", "localhost", "::1"}
# What a failed exchange raises: refused, reset, timed out, cut short or garbled.
FAILURES = (OSError, TimeoutError, ValueError, asyncio.IncompleteReadError)


@dataclass(frozen=True)
class Response:
    status: int
    headers: dict[str, str]  # lower-case names
    body: bytes


class Connection:
    def __init__(self, host: str, port: int, timeout: float = 30.0) -> None:
        if host not in LOOPBACK:
            raise ValueError(f"benchmarks only talk to loopback, not {host}")
        self.host, self.port, self.timeout = host, port, timeout
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None

    async def request(
        self, method: str, path: str, headers: dict[str, str] | None = None, body: bytes = b""
    ) -> Response:
        exchange = self._request(method, path, headers or {}, body)
        return await asyncio.wait_for(exchange, self.timeout)

    async def _request(
        self, method: str, path: str, headers: dict[str, str], body: bytes
    ) -> Response:
        if self._writer is None:
            self._reader, self._writer = await asyncio.open_connection(self.host, self.port)
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        if body or method == "POST":
            lines.append(f"Content-Length: {len(body)}")
        self._writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body)
        try:
            return await self._read_response(method)
        except BaseException:
            await self.close()
            raise

    async def _read_response(self, method: str) -> Response:
        reader = self._reader
        assert reader is not None
        status_line = await reader.readline()
        if not status_line:
            raise ConnectionError("the server closed the connection")
        status = int(status_line.split()[1])
        headers: dict[str, str] = {}
        while (line := await reader.readline()) not in (b"\r\n", b"\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            headers[name.strip().lower()] = value.strip()
        if method == "HEAD" or status in (204, 304) or 100 <= status < 200:
            body = b""
        elif headers.get("transfer-encoding", "").lower() == "chunked":
            body = await self._read_chunked(reader)
        else:
            body = await reader.readexactly(int(headers.get("content-length", "0")))
        if headers.get("connection", "").lower() == "close":
            await self.close()
        return Response(status, headers, body)

    @staticmethod
    async def _read_chunked(reader: asyncio.StreamReader) -> bytes:
        parts = []
        while size := int((await reader.readline()).split(b";")[0], 16):
            parts.append(await reader.readexactly(size))
            await reader.readline()
        while (await reader.readline()) not in (b"\r\n", b"\n", b""):
            pass  # trailers
        return b"".join(parts)

    async def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
            with contextlib.suppress(OSError):
                await self._writer.wait_closed()
        self._reader = self._writer = None


@dataclass
class Run:
    """What a closed loop measured: every answered request's latency, and the failures."""

    seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)
    errors: int = 0

    @property
    def requests_per_second(self) -> float:
        return len(self.latencies) / self.seconds if self.seconds else 0.0


# One request (or a few) on a connection; returns False when the answer was wrong.
Exchange = Callable[[Connection], Awaitable[bool]]


async def closed_loop(
    port: int, exchange: Exchange, *, connections: int, seconds: float, max_requests: int
) -> Run:
    run = Run()
    deadline = time.perf_counter() + seconds
    budget = [max_requests]

    async def loop() -> None:
        connection = Connection("127.0.0.1", port)
        try:
            while time.perf_counter() < deadline and budget[0] > 0:
                budget[0] -= 1
                began = time.perf_counter()
                try:
                    ok = await exchange(connection)
                except FAILURES:
                    ok = False
                if ok:
                    run.latencies.append(time.perf_counter() - began)
                else:
                    run.errors += 1
        finally:
            await connection.close()

    started = time.perf_counter()
    await asyncio.gather(*(loop() for _ in range(connections)))
    run.seconds = time.perf_counter() - started
    return run


def percentile(samples: list[float], fraction: float) -> float:
    """The nearest-rank percentile (0 for no samples)."""
    if not samples:
        return 0.0
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered) + 0.5) - 1))]


class Stream:
    """A server-sent events stream read on its own connection: messages as they come."""

    def __init__(self, port: int, path: str, cookie: str) -> None:
        self.port, self.path, self.cookie = port, path, cookie
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        request = (
            f"GET {self.path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
            f"Accept: text/event-stream\r\nCookie: {self.cookie}\r\n\r\n"
        )
        self.writer.write(request.encode())
        status = await self.reader.readline()
        if b" 200 " not in status:
            raise ConnectionError(f"stream answered {status!r}")
        self.chunked = False
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            if line.lower().startswith(b"transfer-encoding:") and b"chunked" in line.lower():
                self.chunked = True
        self.buffer, self.marks = b"", b""  # marks: the last message's (bench/_stages.py)
        self.size: int | None = None  # a chunk's size, read before its data

    async def message(self) -> tuple[bytes, bytes]:
        """The next message: its event type (b"message" by default) and its data."""
        assert self.reader is not None
        while True:
            if b"\n\n" in self.buffer:
                block, self.buffer = self.buffer.split(b"\n\n", 1)
                lines = block.split(b"\n")
                data = [line[6:] for line in lines if line.startswith(b"data: ")]
                kind = next((line[7:] for line in lines if line.startswith(b"event: ")), b"message")
                self.marks = next((line for line in lines if line.startswith(b": stages ")), b"")
                if data:
                    return kind, b"\n".join(data)
                continue
            if self.chunked:
                # A wait for the next message may be cut short (asyncio.wait_for) anywhere
                # here: the chunk's size is kept until its data and CRLF are read in one
                # go, so a cut between the two never reads data as the next size.
                if self.size is None:
                    line = await self.reader.readline()
                    if not line:
                        raise ConnectionError("the stream ended")
                    self.size = int(line.split(b";")[0], 16)
                if self.size == 0:
                    raise ConnectionError("the stream ended")
                self.buffer += (await self.reader.readexactly(self.size + 2))[:-2]
                self.size = None
            else:
                chunk = await self.reader.read(4096)
                if not chunk:
                    raise ConnectionError("the stream ended")
                self.buffer += chunk

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
