"""One server per room: a second `serve` on a port or a data folder in use stops at once,
and commands started beside a running server find its address.

Terms:
    port in use    something already listens on the port: binding it without
                   SO_REUSEPORT fails. Granian binds with SO_REUSEPORT, so two granians
                   would both bind one port and share its connections between two
                   databases; `serve` probes first (port_in_use) and refuses.
    server lock    DATA_DIR/server.lock, locked exclusively (flock; msvcrt.locking on
                   Windows) by the serving main process for its whole life: a second
                   server on the same data folder cannot take it. The operating system
                   lets go of it whenever the process ends, killed or not, so a lock is
                   never stale. Workers do not inherit it (files are opened
                   non-inheritable and granian spawns its workers).
    server file    DATA_DIR/server.json, written by the process holding the lock: its pid,
                   host and port, and the address this laptop reaches it at. It counts only
                   while the lock is held (running_server); the lock file itself holds no
                   data, because Windows' locks keep other processes from reading it.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import sys
from pathlib import Path
from typing import IO, TypedDict

from tournament.common.folders import make_folder

LOCK_NAME = "server.lock"
FILE_NAME = "server.json"
WILDCARD_HOSTS = {"", "0.0.0.0", "::"}


class ServerFile(TypedDict):
    """What the server file records (see Terms)."""

    pid: int
    host: str
    port: int
    url: str  # how this laptop reaches it, e.g. http://127.0.0.1:8123


def local_host(host: str) -> str:
    """The address this machine reaches a server listening on ``host`` at: loopback for
    every address, else that address itself."""
    return "127.0.0.1" if host in WILDCARD_HOSTS else host


def port_in_use(host: str, port: int) -> bool:
    """Whether something already listens on ``port`` (see Terms: port in use)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        if sys.platform == "win32":
            # Windows' SO_REUSEADDR would let the probe share a port in use.
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_EXCLUSIVEADDRUSE, 1)
        else:
            # A server stopped a moment ago leaves connections in TIME_WAIT: not in use.
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host or "0.0.0.0", port))
        except OSError:
            return True
    return False


def _try_lock(handle: IO[bytes]) -> bool:
    """Lock the open lock file exclusively without waiting; whether it was free."""
    try:
        if sys.platform == "win32":
            import msvcrt

            handle.seek(0)
            msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
        else:
            import fcntl

            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def hold_data_folder(folder: Path) -> IO[bytes] | None:
    """Take the server lock of ``folder`` (made if missing) for as long as the returned
    file stays open, which the caller keeps until it exits; None when another process
    holds it (see Terms: server lock)."""
    handle = open(make_folder(folder) / LOCK_NAME, "a+b")  # noqa: SIM115 (kept open)
    if _try_lock(handle):
        return handle
    handle.close()
    return None


def is_held(folder: Path) -> bool:
    """Whether a running server holds the lock of ``folder`` (a test of the lock, let go
    at once)."""
    path = folder / LOCK_NAME
    if not path.is_file():
        return False
    with open(path, "a+b") as handle:
        return not _try_lock(handle)  # closing the file lets a lock taken here go


def record_server(folder: Path, *, host: str, port: int) -> ServerFile:
    """Write the server file (see Terms), atomically: a reader never sees half of it."""
    record = ServerFile(
        pid=os.getpid(), host=host, port=port, url=f"http://{local_host(host)}:{port}"
    )
    path = folder / FILE_NAME
    partial = path.with_suffix(".json.partial")
    partial.write_text(json.dumps(record), encoding="utf-8")
    os.replace(partial, path)
    return record


def forget_server(folder: Path) -> None:
    """Remove the server file, as a server that stops does."""
    with contextlib.suppress(OSError):
        (folder / FILE_NAME).unlink()


def running_server(folder: Path) -> ServerFile | None:
    """The server file of the server serving ``folder`` now; None when none is (no lock
    held), or what it wrote cannot be read."""
    if not is_held(folder):
        return None
    try:
        record = json.loads((folder / FILE_NAME).read_text(encoding="utf-8"))
        return ServerFile(
            pid=int(record["pid"]),
            host=str(record["host"]),
            port=int(record["port"]),
            url=str(record["url"]),
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None
