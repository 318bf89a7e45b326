"""Stopping the laptop's server from its own console: when it may be stopped, and how.

Terms:
    main process   the `manage.py serve` (or `fivetricks`) process that runs granian and
                   started its workers. Its PID reaches the workers in the environment
                   (SERVER_PID_VARIABLE), as the port does; a worker serves the request
                   and signals the main process, which stops every worker and returns the
                   terminal (or closes the double-clicked app's window).
    stoppable      a server the console may stop: started by `serve` (the variable names
                   this worker's own parent, so a variable left over in a shell stops
                   nothing) and not hosted. A hosted server runs on PostgreSQL
                   (DATABASE_URL), behind a proxy (FIVETRICKS_BEHIND_PROXY) or at an
                   https public URL: there a proxy on the same machine makes every visitor
                   look as if they came from the machine itself, and a server that people
                   reach over the internet is stopped by whoever runs the machine, not from
                   a web page.
    the laptop     a request from the machine the server runs on: its client address
                   (REMOTE_ADDR) is loopback. Only there the button shows: a phone or a
                   co-facilitator's laptop on the Wi-Fi has no business stopping the room.
    graceful stop  SIGINT to the main process, as Ctrl+C in its terminal: granian stops
                   listening, asks every worker to stop, and each worker first finishes the
                   requests it is serving (a closing round, its backup), with no time limit,
                   and ends its screens' streams (tournament.serving.stopping).
                   On Windows, where one process cannot send another a Ctrl+C, the Ctrl+C
                   goes to every process of the app's console window, as the key would.
    soon           STOP_DELAY seconds after the page saying "stopped" was rendered, in a
                   timer thread: time enough for it and its style sheet to reach the
                   browser before the server stops listening.
"""

from __future__ import annotations

import ipaddress
import os
import signal
import sys
import threading
from collections.abc import Mapping

SERVER_PID_VARIABLE = "FIVETRICKS_SERVER_PID"
STOP_DELAY = 1.5  # seconds
TRUE_WORDS = {"1", "true", "yes"}


def is_hosted(environ: Mapping[str, str]) -> bool:
    """Whether these settings are a hosted server's (see Terms: stoppable)."""
    return (
        bool(environ.get("DATABASE_URL"))
        or environ.get("FIVETRICKS_BEHIND_PROXY", "").strip().lower() in TRUE_WORDS
        or environ.get("FIVETRICKS_PUBLIC_URL", "").strip().lower().startswith("https:")
    )


def stoppable_pid(environ: Mapping[str, str], parent_pid: int) -> int | None:
    """The main process's PID if this server is stoppable from its console (see Terms),
    else None. ``parent_pid`` is this process's parent (os.getppid())."""
    try:
        pid = int(environ.get(SERVER_PID_VARIABLE, ""))
    except ValueError:
        return None
    if is_hosted(environ) or pid <= 0 or pid != parent_pid:
        return None
    return pid


def is_loopback(address: str) -> bool:
    """Whether a client address is this machine's own (127.0.0.0/8, ::1, or IPv4 loopback
    written as IPv6); anything that is not an address is not."""
    try:
        parsed = ipaddress.ip_address(address.strip())
    except ValueError:
        return False
    mapped = getattr(parsed, "ipv4_mapped", None)
    return parsed.is_loopback or bool(mapped and mapped.is_loopback)


def send_stop_signal(pid: int) -> None:
    """Ask the main process to stop gracefully (see Terms: graceful stop)."""
    if sys.platform == "win32":
        os.kill(0, signal.CTRL_C_EVENT)  # 0: every process attached to this console
    else:
        os.kill(pid, signal.SIGINT)


def stop_soon(pid: int, *, delay: float | None = None) -> threading.Timer:
    """Send the stop signal to ``pid`` in a timer thread, ``delay`` seconds from now (see
    Terms: soon). Returns the started timer."""
    timer = threading.Timer(STOP_DELAY if delay is None else delay, send_stop_signal, (pid,))
    timer.daemon = True  # never what keeps a stopping worker alive
    timer.start()
    return timer
