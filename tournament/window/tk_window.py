"""The window's widgets, in Tk: what screen.py says, laid out; no decisions of its own.

Terms:
    layout     the product and its state on top; then the phones' address (copyable text)
               and its QR code side by side, with where the data is under the address;
               the two buttons at the foot. Every text can be selected and copied.
    module     one square of the QR code, drawn MODULE_POINTS points wide, so it stays
               as large on a high-resolution screen as on an ordinary one (Tk's scaling
               is pixels per point).
    asking     closing the window, or Stop, while the server serves asks first: phones
               would no longer reach it. The question is in the box's message, not only
               in its title bar, which a machine without a window manager never shows.
    keyboard   Tab moves between the buttons (and the copyable texts); Space, Return
               and the keypad's Enter press the focused button. "Open the console" takes
               the focus once it works, unless something else in the window has it. The
               focused button, here and in Tk's own dialogs (those of Linux; Windows and
               macOS draw theirs), has a solid ring RING_POINTS wide (the theme's is a
               dotted line one pixel wide).
    greyed     once the server stops, the phones' address and its QR code are greyed
               out: they no longer lead anywhere.
"""

from __future__ import annotations

import tkinter as tk
from collections.abc import Callable
from tkinter import font, messagebox, ttk
from typing import Any

from django.utils.translation import gettext as _

from tournament.common.product import made_by
from tournament.window.screen import (
    COLOURS,
    DARK,
    GREYED,
    LIGHT,
    Phase,
    Shown,
    qr_matrix,
    qr_rows,
)

MODULE_POINTS = 3.75  # 5 pixels at 96 dpi
WRAP_POINTS = 300  # the width, in points, that the longer texts wrap at
PLACEHOLDER_MODULES = 33  # a code for http://192.168.1.20:8000/, its quiet zone included
MUTED = "#4a4a4a"
WARNING = "#b00020"
RING_POINTS = 2.25  # 3 pixels at 96 dpi
RING = "#0b57d0"  # 4.57:1 on the window's grey (#dcdad5), where a ring needs 3:1


class Window:
    """The Tk widgets of the window (see Terms: layout), filled by show() and show_address()."""

    def __init__(
        self,
        root: tk.Tk,
        *,
        data_dir: str,
        on_open: Callable[[], None],
        on_stop: Callable[[], None],
        on_close: Callable[[], None],
    ) -> None:
        self.root = root
        root.title(made_by())
        root.protocol("WM_DELETE_WINDOW", on_close)
        root.resizable(False, False)
        style = ttk.Style(root)
        if "clam" in style.theme_names():  # the default theme on X looks dated
            style.theme_use("clam")
        scaling = float(root.tk.call("tk", "scaling"))
        self.module_pixels = max(2, round(MODULE_POINTS * scaling))
        wrap = round(WRAP_POINTS * scaling)
        base = font.nametofont("TkDefaultFont")
        size = abs(int(base.cget("size"))) or 10
        big = base.copy()
        big.configure(size=size + 6, weight="bold")
        strong = base.copy()
        strong.configure(size=size + 3, weight="bold")
        self.fonts = (big, strong)  # Tk forgets a font Python no longer holds
        self.ring = ring_style(style, root, max(2, round(RING_POINTS * scaling)))

        frame = ttk.Frame(root, padding=16)
        frame.grid(sticky="nsew")
        ttk.Label(frame, text=made_by(), font=big).grid(row=0, column=0, columnspan=2, sticky="w")
        self.state = ttk.Label(frame, font=strong)
        self.state.grid(row=1, column=0, columnspan=2, sticky="w", pady=(6, 0))
        self.detail = ttk.Label(frame, foreground=MUTED, wraplength=wrap * 1.5, justify="left")
        self.detail.grid(row=2, column=0, columnspan=2, sticky="w")
        ttk.Separator(frame).grid(row=3, column=0, columnspan=2, sticky="ew", pady=12)

        left = ttk.Frame(frame)
        left.grid(row=4, column=0, sticky="nw", padx=(0, 16))
        ttk.Label(left, text=_("Phones on the same Wi-Fi open:")).grid(sticky="w")
        self.address = self._copyable(left, font=strong)
        self.address.insert_text("…")
        self.warning = ttk.Label(left, foreground=WARNING, wraplength=wrap, justify="left")
        self.warning.grid(sticky="w")
        ttk.Label(left, text=_("Your events and backups are kept in:")).grid(
            sticky="w", pady=(12, 0)
        )
        self._copyable(left).insert_text(data_dir)

        # Until the address is known, a blank square of a usual code's size holds its place.
        side = PLACEHOLDER_MODULES * self.module_pixels
        self.qr_image = tk.PhotoImage(width=side, height=side)
        self.qr_image.put(LIGHT, to=(0, 0, side, side))
        self.qr = tk.Label(
            frame,
            image=self.qr_image,
            compound="center",
            background=LIGHT,
            foreground=MUTED,
            wraplength=side - 16,
            text=_("The phones' QR code shows here once the server is ready."),
        )
        self.qr.grid(row=4, column=1, sticky="ne")

        ttk.Separator(frame).grid(row=5, column=0, columnspan=2, sticky="ew", pady=12)
        buttons = ttk.Frame(frame)
        buttons.grid(row=6, column=0, columnspan=2, sticky="ew")
        self.open_button = ttk.Button(buttons, text=_("Open the console"), command=on_open)
        self.open_button.pack(side="left")
        self.stop_button = ttk.Button(buttons, text=_("Stop the server"), command=on_stop)
        self.stop_button.pack(side="right")
        for button in (self.open_button, self.stop_button):
            for key in ("<Return>", "<KP_Enter>"):
                button.bind(key, press)
        self.qr_code: list[list[bool]] | None = None
        self.greyed = False

    def _copyable(self, parent: ttk.Frame, **options: Any) -> CopyableText:  # Tk options
        entry = CopyableText(parent, width=34, **options)
        entry.grid(sticky="we")
        return entry

    def show(self, phase: Phase, shown: Shown) -> None:
        """Show one moment of the server's life (screen.shown)."""
        if self.root.title() != shown.title:
            self.root.title(shown.title)
        self.state.configure(text=shown.state, foreground=COLOURS[phase])
        self.detail.configure(text=shown.detail)
        self.open_button.state(["!disabled"] if shown.can_open else ["disabled"])
        self.stop_button.state(["!disabled"] if shown.can_stop else ["disabled"])
        # Nothing in the window had the focus yet (Tk names the window itself then).
        if shown.can_open and str(self.root.tk.call("focus", "-lastfor", self.root)) == ".":
            self.open_button.focus_set()
        if not shown.address_live and not self.greyed:
            self.greyed = True
            self.address.state(["disabled"])
            self._draw_qr()

    def show_address(self, url: str, warning: str | None) -> None:
        """The phones' address as text and as a QR code, and why phones could not use it."""
        if self.address.get() != url:
            self.address.insert_text(url)
            self.qr_code = qr_matrix(url)
            self._draw_qr()
        self.warning.configure(text=warning or "")

    def _draw_qr(self) -> None:
        """The QR code of the address shown, black, or greyed out (see Terms: greyed)."""
        if self.qr_code is None:
            return
        size = len(self.qr_code)
        image = tk.PhotoImage(width=size, height=size)
        image.put(qr_rows(self.qr_code, dark=GREYED if self.greyed else DARK))
        self.qr_image = image.zoom(self.module_pixels)
        self.qr.configure(image=self.qr_image, text="")

    def ask_to_stop(self) -> bool:
        """Whether the organizer confirms stopping the server (see Terms: asking)."""
        return messagebox.askokcancel(
            title=_("Stop the server?"),
            message=_("Stop the server?"),
            detail=_(
                "The phones and the console can no longer reach it until you start Five "
                "Tricks again. Your data is kept."
            ),
            icon=messagebox.WARNING,
            parent=self.root,
        )

    def say(self, title: str, message: str) -> None:
        """A short message in a box of its own, e.g. the link when no browser opened."""
        messagebox.showinfo(title=title, message=message, parent=self.root)


def ring_style(style: ttk.Style, root: tk.Tk, pixels: int) -> tuple[tk.PhotoImage, ...]:
    """Every button of the window and its dialogs: the theme's button inside a ring
    ``pixels`` wide, solid RING when the button has the focus (and works), blank
    otherwise (see Terms: keyboard). The ring is an image element, stretched around the
    button; the images are returned to be held (Tk forgets an image Python no longer
    holds)."""
    side = 4 * pixels
    blank = tk.PhotoImage(master=root, width=side, height=side)  # transparent
    ring = tk.PhotoImage(master=root, width=side, height=side)
    for box in (
        (0, 0, side, pixels),
        (0, side - pixels, side, side),
        (0, 0, pixels, side),
        (side - pixels, 0, side, side),
    ):
        ring.put(RING, to=box)  # the middle, never put, stays transparent
    style.element_create(
        "Ring.ring", "image", blank, ("focus !disabled", ring), border=pixels, sticky="nsew"
    )
    # The theme's button without its dotted focus line (Button.focus).
    label: Any = [("Button.label", {"sticky": "nswe"})]  # Tk's nested layout lists
    button: Any = [("Button.padding", {"sticky": "nswe", "children": label})]
    border: Any = [("Button.border", {"sticky": "nswe", "border": "1", "children": button})]
    style.layout("TButton", [("Ring.ring", {"sticky": "nswe", "children": border})])
    return blank, ring


def press(event: tk.Event[ttk.Button]) -> str:
    """Return or the keypad's Enter on a button presses it, as Space does."""
    event.widget.invoke()
    return "break"  # the key goes no further (a dialog's own Return, say)


class CopyableText(ttk.Entry):
    """One line of text that can be selected and copied, not changed."""

    def insert_text(self, text: str) -> None:
        self.configure(state="normal")
        self.delete(0, "end")
        self.insert(0, text)
        self.configure(state="readonly")
