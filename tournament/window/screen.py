"""What the window says and draws, without Tk: tested without a display.

Terms:
    phase      where the server is: preparing (started, not answering /healthz yet), ready,
               stopping (asked to stop, not ended yet), stopped (ended when asked, or by
               the console's "Stop the server") and failed (ended when nobody asked).
    shown      the words and the buttons for one moment of one phase (Shown): the
               window's title (also what the taskbar shows), the state line, the line
               under it, which buttons work, and whether the phones' address still leads
               to a server (once it stops, the address and its QR code are greyed out).
    QR rows    a QR code as Tk's PhotoImage.put() takes it: one "{#rrggbb ...}" group per
               row of modules, dark on white, with the quiet zone cameras need; GREYED
               instead of dark once the address leads nowhere.
    language   the window speaks the laptop's language when the product has it (the
               usual locale variables, then Windows' own setting), else English.
"""

from __future__ import annotations

import enum
import locale
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import qrcode
import qrcode.constants
from django.utils.translation import gettext as _

from tournament.common.product import NAME

DARK, LIGHT = "#000000", "#ffffff"
GREYED = "#b0b0b0"  # a stopped server's QR code: plainly not the live black one
QUIET_ZONE_MODULES = 4  # a screen's glare needs more than paper's two (common/qr.py)
FAILED_LINES = 6  # of the child's last lines, shown when it ended unasked
LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


class Phase(enum.Enum):
    PREPARING = "preparing"
    READY = "ready"
    STOPPING = "stopping"
    STOPPED = "stopped"
    FAILED = "failed"


# The state line's colour: amber while it is not yet safe to send phones, green when it is.
# Each is 4.5:1 or more on the window's grey (the clam theme's #dcdad5), as its 13-point
# bold text needs: amber 4.53:1, green 4.81:1 (the #17702b it was gave 4.44:1), grey
# 5.34:1, red 5.24:1.
COLOURS = {
    Phase.PREPARING: "#8a5300",
    Phase.READY: "#156a28",
    Phase.STOPPING: "#555555",
    Phase.STOPPED: "#555555",
    Phase.FAILED: "#b00020",
}


@dataclass(frozen=True)
class Shown:
    title: str
    state: str
    detail: str
    can_open: bool  # "Open the console"
    can_stop: bool  # "Stop the server"
    asks_before_closing: bool  # closing the window would stop a server that serves
    address_live: bool  # the phones' address leads to the server (else greyed out)


def shown(phase: Phase, *, elapsed: float = 0, step: str = "", tail: Sequence[str] = ()) -> Shown:
    """The window at one moment (see Terms: shown). ``elapsed``: seconds since the start;
    ``step``: the server's newest line while preparing; ``tail``: its last lines."""
    product = NAME
    if phase is Phase.PREPARING:
        return Shown(
            title=_("%(product)s – preparing…") % {"product": product},
            state=_("Preparing… (%(seconds)d s)") % {"seconds": elapsed},
            detail=step or _("Starting the server…"),
            can_open=False,
            can_stop=True,
            asks_before_closing=True,
            address_live=True,
        )
    if phase is Phase.READY:
        return Shown(
            title=_("%(product)s – ready") % {"product": product},
            state=_("Ready: the phones can join."),
            detail=_("Keep this window open during the event."),
            can_open=True,
            can_stop=True,
            asks_before_closing=True,
            address_live=True,
        )
    if phase is Phase.STOPPING:
        return Shown(
            title=_("%(product)s – stopping…") % {"product": product},
            state=_("Stopping…"),
            detail=_("The server finishes what it is doing (a closing round, its backup)."),
            can_open=False,
            can_stop=False,
            asks_before_closing=False,
            address_live=False,
        )
    if phase is Phase.STOPPED:
        return Shown(
            title=_("%(product)s – stopped") % {"product": product},
            state=_("Stopped."),
            detail=_("You can close this window. Your data is kept."),
            can_open=False,
            can_stop=False,
            asks_before_closing=False,
            address_live=False,
        )
    return Shown(
        title=_("%(product)s – stopped unexpectedly") % {"product": product},
        state=_("The server stopped unexpectedly. Its last words:"),
        detail="\n".join(tail[-FAILED_LINES:]) or _("(it said nothing)"),
        can_open=False,
        can_stop=False,
        asks_before_closing=False,
        address_live=False,
    )


def qr_matrix(text: str) -> list[list[bool]]:
    """The modules of a QR code for ``text`` (True: dark), quiet zone included. Error
    correction "M": a screen is neither smudged nor folded."""
    code = qrcode.QRCode(
        error_correction=qrcode.constants.ERROR_CORRECT_M, border=QUIET_ZONE_MODULES
    )
    code.add_data(text)
    code.make(fit=True)
    return code.get_matrix()


def qr_rows(matrix: Sequence[Sequence[bool]], *, dark: str = DARK) -> str:
    """The matrix as PhotoImage.put() data, one pixel per module (see Terms: QR rows),
    its dark modules in ``dark``."""
    return " ".join("{" + " ".join(dark if on else LIGHT for on in row) + "}" for row in matrix)


def language(environ: Mapping[str, str], known: Iterable[str], windows_code: str = "") -> str:
    """The first of the laptop's languages the product has, else "en" (see Terms:
    language). ``windows_code`` is Windows' own setting, e.g. "fr_FR"."""
    known = set(known)
    wanted = [
        part
        for name in LOCALE_VARIABLES
        for part in environ.get(name, "").split(":")
        if part and part not in {"C", "POSIX"}
    ]
    for code in [*wanted, windows_code]:
        short = code.split(".")[0].split("_")[0].split("-")[0].lower()
        if short in known:
            return short
    return "en"


def windows_language() -> str:
    """Windows' display language as a locale name ("fr_FR"); "" elsewhere."""
    if sys.platform != "win32":
        return ""
    import ctypes

    return locale.windows_locale.get(ctypes.windll.kernel32.GetUserDefaultUILanguage(), "")
