"""Just enough of a PDF reader to check Chromium's print-to-PDF, with the standard library.

Terms:
    page      a ``/Type /Page`` object: its size (``/MediaBox``, in points) and its
              content stream (``/Contents``), inflated when it is Flate-compressed.
    marks     what a page draws: text shown (the Tj and TJ operators) and paths filled or
              stroked (f, S, B ...). A page without either is blank.

Chromium (Skia) writes plain objects, no object streams, so a regular expression finds
them. Text itself is glyph numbers, so reading words needs pdftotext (poppler), used by
the tests only where it is installed.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import zlib
from dataclasses import dataclass
from pathlib import Path

OBJECT = re.compile(rb"(\d+) 0 obj\s*(.*?)\s*endobj", re.S)
STREAM = re.compile(rb"stream\r?\n(.*)\r?\nendstream", re.S)
TEXT_SHOWN = re.compile(rb"(?:\)|\]|>)\s*T[jJ]\b")
PATH_PAINTED = re.compile(rb"\s(?:f\*?|S|s|B\*?|b\*?)\s")
POINTS_PER_MM = 72 / 25.4


@dataclass(frozen=True)
class PdfPage:
    width_mm: float
    height_mm: float
    content: bytes

    @property
    def shows_text(self) -> bool:
        return TEXT_SHOWN.search(self.content) is not None

    @property
    def paints(self) -> int:
        return len(PATH_PAINTED.findall(self.content))


def _stream(body: bytes) -> bytes:
    found = STREAM.search(body)
    if found is None:
        return b""
    raw = found.group(1)
    return zlib.decompress(raw) if b"/FlateDecode" in body[: found.start()] else raw


def pdf_pages(pdf: bytes) -> list[PdfPage]:
    objects = {int(number): body for number, body in OBJECT.findall(pdf)}
    pages = []
    for body in objects.values():
        if not re.search(rb"/Type\s*/Page\b(?!s)", body):
            continue
        media_box = re.search(rb"/MediaBox\s*\[([^\]]+)\]", body)
        listed = re.search(rb"/Contents\s*(\[[^\]]*\]|\d+ 0 R)", body)
        assert media_box is not None, body[:200]
        assert listed is not None, body[:200]
        box = [float(n) for n in media_box[1].split()]
        contents = [int(n) for n in re.findall(rb"(\d+) 0 R", listed[1])]
        pages.append(
            PdfPage(
                width_mm=(box[2] - box[0]) / POINTS_PER_MM,
                height_mm=(box[3] - box[1]) / POINTS_PER_MM,
                content=b"\n".join(_stream(objects[number]) for number in contents),
            )
        )
    return pages


def page_texts(pdf_path: Path) -> list[str] | None:
    """Each page's words, with poppler's pdftotext; None where it is not installed."""
    if shutil.which("pdftotext") is None:
        return None
    text = subprocess.run(
        ["pdftotext", "-layout", str(pdf_path), "-"], capture_output=True, check=True, text=True
    ).stdout
    return text.split("\f")[: text.count("\f")]


def render_pngs(pdf_path: Path, prefix: Path, *, dpi: int = 70) -> list[Path]:
    """The pages as PNG images beside the PDF (pdftoppm), for a person to look at."""
    if shutil.which("pdftoppm") is None:
        return []
    subprocess.run(["pdftoppm", "-r", str(dpi), "-png", str(pdf_path), str(prefix)], check=True)
    return sorted(prefix.parent.glob(f"{prefix.name}-*.png"))
