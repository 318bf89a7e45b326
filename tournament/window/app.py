"""`fivetricks` in its window: the child server started, watched, shown and stopped.

Terms:
    tick       every TICK_MS the window looks at the child (server.py) and shows its phase
               (screen.py); nothing here waits on the child, so the window never freezes.
    first      the first time the child is ready, the default browser opens on the console
               through a one-time sign-in link, as the double click always did: after the
               server answers, never before (a refused connection is what people saw).
    address    read again every ADDRESS_SECONDS while ready: the organizer may pick
               another on the console, or the laptop may join the venue's Wi-Fi late.
    in-process what the window reads itself through Django, from the same data folder as
               the child: where the data is, the phones' address (once the child has
               migrated the database) and the sign-in link.
"""

from __future__ import annotations

import os
import signal
import sys
import time
import webbrowser
from collections.abc import Sequence
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _

from tournament.window.screen import Phase, language, shown, windows_language
from tournament.window.server import ServerProcess, child_command

if TYPE_CHECKING:
    # Annotations only: Tk is imported when the window opens (serve_in_window), as a
    # Python without it serves in the terminal.
    import tkinter as tk

    from tournament.window.tk_window import Window

TICK_MS = 200
ADDRESS_SECONDS = 10.0


def _set_up_django(port: int) -> str:
    """Django for the window's own reads (see Terms: in-process); the data folder."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
    os.environ["FIVETRICKS_PORT"] = str(port)
    import django
    from django.conf import settings
    from django.utils import translation

    django.setup()
    known = [code for code, _name in settings.LANGUAGES]
    translation.activate(language(os.environ, known, windows_language()))
    return str(settings.DATA_DIR)


def hide_own_console() -> None:
    """On Windows, hide the console window a double click made for the app (the window
    stands in for it); one the app shares with a terminal stays. The console itself stays:
    the Ctrl+C that stops the server travels through it (server.py: stop)."""
    if sys.platform != "win32":
        return
    import ctypes

    kernel32 = ctypes.windll.kernel32
    processes = (ctypes.c_uint32 * 2)()
    if kernel32.GetConsoleProcessList(processes, 2) == 1:  # this process alone: a double click
        ctypes.windll.user32.ShowWindow(kernel32.GetConsoleWindow(), 0)  # SW_HIDE


class Controller:
    """Runs the window: ticks, buttons, closing and signals (see Terms)."""

    def __init__(self, root: tk.Tk, window: Window, server: ServerProcess, *, browser: bool):
        self.root = root
        self.window = window
        self.server = server
        self.browser = browser
        self.closing = False
        self.was_ready = False
        self.address_read_at = 0.0
        self.exit_status = 0

    def phase(self) -> Phase:
        code = self.server.exit_code()
        if code is not None:
            # 0: stopped as asked, here or by the console's "Stop the server".
            return Phase.STOPPED if self.server.stopping or code == 0 else Phase.FAILED
        if self.server.stopping:
            return Phase.STOPPING
        return Phase.READY if self.server.ready.is_set() else Phase.PREPARING

    def tick(self) -> None:
        phase = self.phase()
        if phase is Phase.READY:
            self.when_ready()
        elif phase is Phase.STOPPING:
            self.server.kill_when_overdue()
        elif phase is Phase.FAILED:
            self.exit_status = self.server.exit_code() or 1
        if self.closing and phase in {Phase.STOPPED, Phase.FAILED}:
            self.root.destroy()
            return
        elapsed = time.monotonic() - self.server.started_at
        self.window.show(
            phase,
            shown(phase, elapsed=elapsed, step=self.server.last_step(), tail=self.server.lines),
        )
        self.root.after(TICK_MS, self.tick)

    def when_ready(self) -> None:
        """The address now and then, the browser the first time (see Terms: first)."""
        now = time.monotonic()
        if now - self.address_read_at >= ADDRESS_SECONDS:
            self.address_read_at = now
            self.window.show_address(*read_address(self.server.port))
        if not self.was_ready:
            self.was_ready = True
            if self.browser:
                self.open_console()

    def open_console(self) -> None:
        """The "Open the console" button: the browser on a new one-time sign-in link."""
        link = sign_in_link(self.server.port)
        if not webbrowser.open(link):
            self.window.say(
                _("Open the console"),
                _("No browser opened. Open this link in one, then press Sign in:") + f"\n\n{link}",
            )

    def stop(self) -> None:
        """The Stop button: asks while the server serves (tk_window: asking), then stops."""
        if shown(self.phase()).asks_before_closing and not self.window.ask_to_stop():
            return
        self.server.stop()

    def close(self) -> None:
        """The window's close box: asks like Stop, stops, and closes once the server ended."""
        if shown(self.phase()).asks_before_closing and not self.window.ask_to_stop():
            return
        self.closing = True
        self.server.stop()

    def signalled(self, number: int, frame: object) -> None:
        """Ctrl+C or SIGTERM to the window: stop the server and close, without asking."""
        self.closing = True
        self.server.stop(signalled=number == signal.SIGINT)


def read_address(port: int) -> tuple[str, str | None]:
    """The phones' address (tournament.reads.room) and why phones could not use it."""
    from django.db import connections

    from tournament.common import network
    from tournament.reads import room

    try:
        return f"{room.phone_base_url(port)}/", network.address_warning(port)
    finally:
        connections.close_all()  # the window holds no connection between two reads


def sign_in_link(port: int) -> str:
    from django.db import connections

    from tournament.writes.signin import ensure_organizer, sign_in_path

    try:
        return f"http://127.0.0.1:{port}{sign_in_path(ensure_organizer()[0])}"
    finally:
        connections.close_all()


def serve_in_window(*, port: int, arguments: Sequence[str], browser: bool = True) -> int | None:
    """Serve in the window (see the package's Terms) until it is closed; the exit status.
    None when Tk cannot open the display: nothing was started, serve in the terminal."""
    import tkinter as tk

    from tournament.window.tk_window import Window

    data_dir = _set_up_django(port)
    try:
        root = tk.Tk(className="fivetricks")
    except tk.TclError:
        return None
    server = ServerProcess(child_command(port, arguments), port=port, echo=sys.stdout)
    # The window's buttons call the controller, made just after it: Tk calls them only
    # once mainloop runs.
    window = Window(
        root,
        data_dir=data_dir,
        on_open=lambda: controller.open_console(),
        on_stop=lambda: controller.stop(),
        on_close=lambda: controller.close(),
    )
    controller = Controller(root, window, server, browser=browser)
    hide_own_console()
    signal.signal(signal.SIGINT, controller.signalled)
    signal.signal(signal.SIGTERM, controller.signalled)
    server.start()
    controller.tick()
    root.mainloop()
    return controller.exit_status
