"""What a person would notice on a screen, checked in the browser walk (test_walk.py).

Terms:
    overflow      the page wider than the screen, a box that cuts its text, text wider
                  than its box (a long German word that cannot wrap), an element that
                  spills out of its box or runs off the screen.
    spill         a printed kit page whose content runs past the paper's bottom edge.
    English left  on a page in another language: a sentence of the catalogue still in
                  English (english_sentences), or a fragment of text a reader sees that is
                  the same on the English page of the same screen (fragments), once the
                  event's own data is taken out: names, numbers, symbols.
    shared word   a word two languages spell alike ("Radar", "Notes"): SHARED lists the
                  few the catalogues use on purpose, so nothing else may match.
    axe           axe-core's accessibility rules, run inside Chromium (axe-playwright-python).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from html.parser import HTMLParser

from axe_playwright_python.sync_playwright import Axe
from django.utils.translation import trans_real

AXE = Axe()
# An English sentence of the catalogue this long (without its placeholders, and with a
# word of 6 letters or more) cannot be a coincidence on a French, Spanish or German page.
MIN_ENGLISH_CHARS = 12
# The words a language spells exactly as English does, used on purpose.
SHARED = {
    "en": set(),
    "fr": {"Table", "Tables", "table", "tables", "Absent", "Actions", "Corrections", "Phase"}
    | {"Sections", "Notes", "Pause", "Stop", "min", "minutes", "Console", "Date", "Question"}
    | {"Assistant", "assistant", "page"},
    "es": {"min"},
    "de": {"Phase", "Name", "Status", "Pause", "min", "Letter"},  # US Letter: the paper
}
# The product's and the game's names, each language's own name, and the "Abc" of the
# no-writing pictogram.
ALWAYS_SHARED = {"Five Tricks", "Barnga", "English", "Français", "Español", "Deutsch", "Abc"}
# Commands a page tells the organizer to type: the same in every language.
ALWAYS_SHARED |= {"python manage.py signin_link", "make run"}


class PageWatch:
    """Console errors and uncaught exceptions of one page."""

    def __init__(self, page) -> None:
        self.errors: list[str] = []
        page.on("console", lambda message: self._console(message))
        page.on("pageerror", lambda error: self.errors.append(f"uncaught: {error}"))

    def _console(self, message) -> None:
        if message.type == "error":
            self.errors.append(message.text)


def axe_violations(page) -> list[str]:
    results = AXE.run(page)
    return [
        f"{violation['id']} ({violation['impact']}): {violation['help']} — "
        + "; ".join(node["target"][0] for node in violation["nodes"][:3])
        for violation in results.response["violations"]
    ]


# What a reader would notice: the page wider than the screen, a box that cuts its text,
# text wider than its box (a long German word that cannot wrap).
OVERFLOW_REPORT = """(selector) => {
  const scope = selector ? document.querySelector(selector) : document.body;
  const root = document.documentElement;
  const problems = [];
  if (!selector && root.scrollWidth > innerWidth + 1) {
    problems.push(`the page scrolls sideways: ${root.scrollWidth}px on a ${innerWidth}px screen`);
  }
  const describe = (el) => {
    const text = (el.innerText || el.textContent || '').trim().replace(/\\s+/g, ' ');
    const name = el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
      (typeof el.className === 'string' && el.className ? '.' +
       el.className.trim().split(/\\s+/).join('.') : '');
    return `${name} "${text.slice(0, 70)}"`;
  };
  const ownText = (el) => [...el.childNodes].some(
    (node) => node.nodeType === Node.TEXT_NODE && node.textContent.trim());
  for (const el of scope.querySelectorAll('*')) {
    if (!el.getClientRects().length) continue;
    if (el.closest('.visually-hidden, svg, script, style, noscript, option, select')) continue;
    // What a closed <details> holds is not shown (Chromium still lays it out, unseen).
    if (el.closest('details:not([open])') && !el.closest('summary')) continue;
    const style = getComputedStyle(el);
    const clips = (value) => value === 'hidden' || value === 'clip';
    if (clips(style.overflowX) && el.scrollWidth > el.clientWidth + 1) {
      problems.push(`cut at its side (${el.scrollWidth}>${el.clientWidth}px): ${describe(el)}`);
    }
    if (clips(style.overflowY) && el.scrollHeight > el.clientHeight + 1) {
      problems.push(
        `cut at its bottom (${el.scrollHeight}>${el.clientHeight}px): ${describe(el)}`);
    }
    if (!ownText(el) || style.display === 'inline') continue;
    if (!clips(style.overflowX) && el.scrollWidth > el.clientWidth + 1 &&
        style.overflowX === 'visible') {
      problems.push(`text wider than its box (${el.scrollWidth}>${el.clientWidth}px): ` +
                    describe(el));
    }
    const box = el.getBoundingClientRect();
    // A word too long for a fixed-width box spills out of it onto its neighbours.
    // Its box is its nearest ancestor's that has one: a display: contents parent has none.
    let holder = el.parentElement;
    while (holder.parentElement && getComputedStyle(holder).display === 'contents') {
      holder = holder.parentElement;
    }
    const parent = holder.getBoundingClientRect();
    if (getComputedStyle(el).position !== 'absolute' &&
        (box.right > parent.right + 1 || box.left < parent.left - 1)) {
      problems.push(`spills out of its box (${Math.round(box.width)}px in ` +
                    `${Math.round(parent.width)}px): ${describe(el)}`);
    }
    if (box.right > root.clientWidth + 1 || box.left < -1) {
      problems.push(`runs off the screen (${Math.round(box.left)}..${Math.round(box.right)}px)` +
                    `: ${describe(el)}`);
    }
  }
  return problems;
}"""

# How far a printed page's content runs past the page's bottom edge, and its last line.
SHEET_SPILL = """(sheet) => {
  const page = sheet.getBoundingClientRect();
  const lines = [...sheet.querySelectorAll('p, td, li, h3, h4')].filter(
    (el) => el.getClientRects().length && el.getBoundingClientRect().bottom > page.bottom + 1);
  const bottom = Math.max(page.bottom, ...lines.map((el) => el.getBoundingClientRect().bottom));
  const last = lines.length ? lines[lines.length - 1].innerText.trim() : '';
  return {px: Math.round(bottom - page.bottom), last: last.slice(-70), label: sheet.ariaLabel};
}"""


@cache
def english_sentences(language: str) -> tuple[tuple[str, re.Pattern, str], ...]:
    """The catalogue's English sentences that this language translates, as patterns for
    the page's text (a placeholder matches any words), each after its longest plain part
    with its spaces made single: a page whose text lacks that part cannot hold the sentence,
    and a substring test spares the regular expression (a walk tries a thousand of them on
    each of sixty pages)."""
    # _catalog: Django's private dict of the catalogue's messages, the one place that lists
    # them all; its stubs leave it out.
    catalogue = trans_real.translation(language)._catalog  # type: ignore[attr-defined]
    found = []
    for msgid, msgstr in catalogue.items():
        if not isinstance(msgid, str) or not msgid or msgid == msgstr:
            continue
        text = re.sub(r"<[^>]+>", "", msgid).replace("%%", "%")
        parts = re.split(r"%\(\w+\)[sd]|%[sd]", text)
        literal = [part.strip() for part in parts]
        if sum(map(len, literal)) < MIN_ENGLISH_CHARS or max(map(len, literal)) < 6:
            continue
        pattern = r".{1,60}?".join(re.escape(part) for part in parts)
        key = " ".join(max(literal, key=len).split())
        found.append((key, re.compile(pattern.replace(r"\ ", r"\s+")), msgid))
    return tuple(found)


def english_sentences_left(text: str, language: str) -> list[str]:
    """The catalogue's English sentences found in ``text`` (a page's inner text)."""
    spaced = " ".join(text.split())
    return [
        msgid
        for key, pattern, msgid in english_sentences(language)
        if key in spaced and pattern.search(text)
    ]


URL = re.compile(r"https?://\S+")
WORD = re.compile(r"[A-Za-z]{3,}")


class _Text(HTMLParser):
    """The text a person reads on a page, as fragments."""

    ATTRIBUTES = ("aria-label", "title", "placeholder", "alt", "data-label")

    def __init__(self, data: list[str]) -> None:
        super().__init__()
        self.data = [*ALWAYS_SHARED, *data]
        self.fragments: set[str] = set()
        self._hidden = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self._hidden += 1
        for name, value in attrs:
            if name in self.ATTRIBUTES and value:
                self._add(value)

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self._hidden -= 1

    def handle_data(self, data):
        if not self._hidden:
            self._add(data)

    def _add(self, text: str) -> None:
        text = URL.sub("", " ".join(text.split()))
        for name in self.data:
            text = text.replace(name, "")
        if WORD.search(text):
            self.fragments.add(text)


def fragments(html: str, data: Sequence[str] = ()) -> set[str]:
    """The readable fragments of ``html`` with words in them, ``data`` (the event's own:
    names, initials, the event's name) and ALWAYS_SHARED taken out."""
    parser = _Text(list(data))
    parser.feed(html)
    return parser.fragments


def fragments_left(english: set[str], other: set[str], language: str) -> set[str]:
    """The fragments of ``other`` (a page in ``language``) that ``english`` (the same screen in
    English) has too, but for the words the two languages share."""
    shared = SHARED[language]
    return {
        text
        for text in english & other
        if WORD.search(
            " ".join(word for word in text.split() if word.strip(".,:;()·") not in shared)
        )
    }


class _InOrder(_Text):
    """The page's text and labels in the order they come, as one string."""

    def __init__(self) -> None:
        super().__init__([])
        self.parts: list[str] = []

    def _add(self, text: str) -> None:
        self.parts.append(text)


def readable(html: str) -> str:
    """The text a person reads on a page (and its labels), in order."""
    parser = _InOrder()
    parser.feed(html)
    return " ".join(parser.parts)
