"""The app's own window: what a double click on `fivetricks` shows on a laptop with a display.

Terms:
    window     a small native Tk window (tk_window.py) showing the state (preparing, then
               ready), the phones' address as text and as a QR code, where the data is, an
               "Open the console" button and a Stop button. Closing it asks first, then
               stops the server.
    server     the child process that serves the tournament (server.py): Tk must own the
               window's main thread, and granian's serve blocks the thread it runs on.
    display    what a window needs: on Linux an X or Wayland display (DISPLAY,
               WAYLAND_DISPLAY); Windows and macOS always have one. Tk itself must be
               there too (Debian's python3-tk; the double-click app bundles it). Without
               one, `fivetricks` prints the terminal banner as before.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Mapping


def can_show(environ: Mapping[str, str] | None = None, platform: str | None = None) -> bool:
    """Whether a window can be shown here (see Terms: display). Tk may still refuse the
    display when it opens it (app.serve_in_window then says so with None)."""
    environ = os.environ if environ is None else environ
    platform = sys.platform if platform is None else platform
    if platform.startswith("linux") and not (
        environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY")
    ):
        return False
    # _tkinter, not tkinter: a Python built without Tk may still have the pure package.
    return importlib.util.find_spec("_tkinter") is not None
