"""Keys pressed on an X display for the window's test, as a keyboard presses them: through
the XTEST extension (libXtst, which x11-utils depends on), called with ctypes.

Terms:
    focus    the X input focus is given to a window before its keys: no window manager
             runs on the test's Xvfb to give it. Tk then sends each key to the widget
             that has its own focus inside that window.
    key      an X keysym's name: "Return", "KP_Enter", "Tab", "Escape".
"""

from __future__ import annotations

import ctypes
import ctypes.util

REVERT_TO_PARENT = 2
CURRENT_TIME = 0


def available() -> bool:
    return all(ctypes.util.find_library(name) for name in ("X11", "Xtst"))


def _libraries() -> tuple[ctypes.CDLL, ctypes.CDLL]:
    x11 = ctypes.CDLL(ctypes.util.find_library("X11"))
    xtst = ctypes.CDLL(ctypes.util.find_library("Xtst"))
    x11.XOpenDisplay.restype = ctypes.c_void_p
    x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
    x11.XStringToKeysym.restype = ctypes.c_ulong
    x11.XStringToKeysym.argtypes = [ctypes.c_char_p]
    x11.XKeysymToKeycode.restype = ctypes.c_ubyte
    x11.XKeysymToKeycode.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
    x11.XSetInputFocus.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_ulong]
    x11.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
    x11.XCloseDisplay.argtypes = [ctypes.c_void_p]
    xtst.XTestFakeKeyEvent.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_int, ctypes.c_ulong]
    return x11, xtst


def press(display: str, window: str, *keys: str) -> None:
    """Give ``window`` (an id as xwininfo writes it) the focus, then press and release
    each key in turn (see Terms)."""
    x11, xtst = _libraries()
    connection = x11.XOpenDisplay(display.encode())
    if not connection:
        raise OSError(f"cannot open the display {display}")
    try:
        x11.XSetInputFocus(connection, int(window, 16), REVERT_TO_PARENT, CURRENT_TIME)
        x11.XSync(connection, 0)
        for key in keys:
            code = x11.XKeysymToKeycode(connection, x11.XStringToKeysym(key.encode()))
            if not code:
                raise ValueError(f"no key {key!r} on {display}")
            xtst.XTestFakeKeyEvent(connection, code, 1, CURRENT_TIME)
            xtst.XTestFakeKeyEvent(connection, code, 0, CURRENT_TIME)
            x11.XSync(connection, 0)
    finally:
        x11.XCloseDisplay(connection)
