"""The window's widgets, in Tk: what screen.py says, laid out; no decisions of its own.

Terms:
    layout     the product and its state on top; then the phones' address (copyable text)
               and its QR code side by side, with where the data is under the address;
               the two buttons at the foot. Every text can be selected and copied.
    module     one square of the QR code, drawn MODULE_POINTS points wide, so it stays
               as large on a high-resolution screen as on an ordinary one (Tk's scaling
               is pixels per point).
    asking     closing the window, or Stop, while the server serves asks first: phones
               would no longer reach it.
"""

from __future__ import annotations

import tkinter as tk
from collections.abc import Callable
from tkinter import font, messagebox, ttk
from typing import Any

from django.utils.translation import gettext as _

from tournament.common.product import made_by
from tournament.window.screen import COLOURS, LIGHT, Phase, Shown, qr_matrix, qr_rows

MODULE_POINTS = 3.75  # 5 pixels at 96 dpi
WRAP_POINTS = 300  # the width, in points, that the longer texts wrap at
PLACEHOLDER_MODULES = 33  # a code for http://192.168.1.20:8000/, its quiet zone included
MUTED = "#4a4a4a"
WARNING = "#b00020"


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

    def show_address(self, url: str, warning: str | None) -> None:
        """The phones' address as text and as a QR code, and why phones could not use it."""
        if self.address.get() != url:
            self.address.insert_text(url)
            matrix = qr_matrix(url)
            image = tk.PhotoImage(width=len(matrix), height=len(matrix))
            image.put(qr_rows(matrix))
            self.qr_image = image.zoom(self.module_pixels)
            self.qr.configure(image=self.qr_image, text="")
        self.warning.configure(text=warning or "")

    def ask_to_stop(self) -> bool:
        """Whether the organizer confirms stopping the server (see Terms: asking)."""
        return messagebox.askokcancel(
            title=_("Stop the server?"),
            message=_(
                "The phones and the console can no longer reach it until you start Five "
                "Tricks again. Your data is kept."
            ),
            icon=messagebox.WARNING,
            parent=self.root,
        )

    def say(self, title: str, message: str) -> None:
        """A short message in a box of its own, e.g. the link when no browser opened."""
        messagebox.showinfo(title=title, message=message, parent=self.root)


class CopyableText(ttk.Entry):
    """One line of text that can be selected and copied, not changed."""

    def insert_text(self, text: str) -> None:
        self.configure(state="normal")
        self.delete(0, "end")
        self.insert(0, text)
        self.configure(state="readonly")
