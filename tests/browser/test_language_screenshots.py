"""Screenshots of the translated screens, for a person to look at: French, Spanish, German.

It builds one event per language and checks it in every `make test`; with SCREENSHOTS=1
(`make screenshots`) it also writes ./screenshots/i18n/{lang}-*.png (git ignores the folder):

    rule-sheet, players-guide  the printed kit's two pages of one table (its toolbar in the
                               console's language, the pages in the event's), at 1366x900
    phone-round                a table's phone during round 1 after one game, at 390x844
    projector-standings        the projector during round 1, at 1920x1080
    projector-moves            the projector after round 1 closed, at 1920x1080
    console                    the console's event page during round 1, at 1366x900, the
                               organizer's browser asking for that language

and, in ./screenshots/i18n/more/, the kit's toolbar, each panel of the console, the
round's close page, and each printed kit page that runs past its paper, to read at full
size.

Beside the pictures it checks what a person would notice, German being the longest: no
page scrolls sideways, no text is cut off or wider than its box, nothing runs off a printed
page (A4 and Letter), the projector fits as tests/browser/test_screenshots.py requires, and
no English sentence of the catalogue is left on a translated page. Every problem of a
language is listed together, after all its pictures are taken.
"""

from __future__ import annotations

import os
import re
from functools import cache
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext, trans_real
from playwright.sync_api import Page, expect

from tables.rules.variants import Variant
from tests import factories
from tests.browser.conftest import PHONE, PROJECTOR
from tests.browser.test_screenshots import check_fit, room_names
from tournament.models import Event
from tournament.writes.signin import ensure_organizer, sign_in_path

pytestmark = pytest.mark.django_db(transaction=True)
# The checks run in every `make test`; the pictures are written only for a person to look
# at (`make screenshots`).
SAVE_PICTURES = bool(os.environ.get("SCREENSHOTS"))


def snap(target, path: Path, **options) -> None:
    """Write a page's or an element's picture, with SCREENSHOTS=1 only."""
    if SAVE_PICTURES:
        target.screenshot(path=str(path), **options)


LAPTOP_900 = {"width": 1366, "height": 900}
BROWSER_LOCALE = {"fr": "fr-FR", "es": "es-ES", "de": "de-DE"}
EVENT_NAME = {
    "fr": "Atelier du vendredi · Semaine interculturelle",
    "es": "Taller del viernes · Semana intercultural",
    "de": "Freitagsworkshop · Interkulturelle Woche",
}
# The longest rule sheet: trump any time, play higher and fewest wins together.
LONGEST_VARIANT = "high-diamonds-anytime-overtake-fewest"
PAPERS = {"a4": (210, 297), "letter": (215.9, 279.4)}
# An English sentence of the catalogue this long (without its placeholders, and with a
# word of 6 letters or more) cannot be a coincidence on a French, Spanish or German page.
MIN_ENGLISH_CHARS = 12


@pytest.fixture
def shots_dir() -> Path:
    folder = Path(settings.BASE_DIR) / "screenshots" / "i18n"
    (folder / "more").mkdir(parents=True, exist_ok=True)
    return folder


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
    const parent = el.parentElement.getBoundingClientRect();
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
def english_sentences(language: str) -> tuple[tuple[re.Pattern, str], ...]:
    """The catalogue's English sentences that this language translates, as patterns for
    the page's text (a placeholder matches any words)."""
    catalogue = trans_real.translation(language)._catalog
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
        found.append((re.compile(pattern.replace(r"\ ", r"\s+")), msgid))
    return tuple(found)


def english_left(page: Page, language: str, selector: str = "body") -> list[str]:
    text = page.locator(selector).first.inner_text()
    return [msgid for pattern, msgid in english_sentences(language) if pattern.search(text)]


class Findings:
    """Problems noticed on one language's screens, failed together at the end."""

    def __init__(self, language: str) -> None:
        self.language = language
        self.problems: list[str] = []

    def overflow(self, page: Page, shot: str, selector: str | None = None) -> None:
        for problem in page.evaluate(OVERFLOW_REPORT, selector):
            self.problems.append(f"{shot}: {problem}")

    def english(self, page: Page, shot: str, selector: str = "body") -> None:
        for msgid in english_left(page, self.language, selector):
            self.problems.append(f"{shot}: English left: {msgid!r}")

    def projector_fit(self, page: Page, shot: str) -> None:
        try:
            check_fit(page, shot, "1080p")
        except AssertionError as error:
            self.problems.append(f"{shot}: {error}")

    def check(self) -> None:
        assert not self.problems, "\n".join(self.problems)


def event_in(language: str, organizer) -> Event:
    event = factories.seated_event(
        owner=organizer,
        players=room_names(30),
        tables=6,
        name=EVENT_NAME[language],
        language=language,
        difference_set="custom",
        custom_clauses=["fewest"],
    )
    table = factories.table(event, 1)
    table.set_variant(Variant.from_code(LONGEST_VARIANT))
    table.save()
    return event


def sign_in_as(page: Page, live_server, user, language: str) -> None:
    with translation.override(language):
        sign_in, sign_out = gettext("Sign in"), gettext("Sign out")
    page.goto(live_server.url + sign_in_path(user))
    page.get_by_role("button", name=sign_in, exact=True).click()
    expect(page.get_by_role("button", name=sign_out)).to_be_visible()


def play_a_little(event: Event) -> Event:
    """Report a few games so the standings differ; table 1 gets exactly one."""
    for number in event.tables.values_list("number", flat=True):
        names = factories.seated_names(event, number)
        for game in range(1 if number == 1 else number % 3 + 1):
            factories.report(event, number, names[(number + game) % len(names)])
    event.refresh_from_db()
    return event


def projector_shot(page: Page, path: Path) -> None:
    page.evaluate("document.body.classList.add('is-idle')")  # as after 3 s: tools hidden
    page.wait_for_timeout(300)  # the clock's first tick
    snap(page, path)


@pytest.mark.parametrize("language", ["fr", "es", "de"])
def test_the_screens_of_a_language(language, live_server, new_context, shots_dir):
    organizer, _ = ensure_organizer()
    findings = Findings(language)
    event = event_in(language, organizer)
    shot = lambda name: shots_dir / f"{language}-{name}.png"  # noqa: E731
    more = lambda name: shots_dir / "more" / f"{language}-{name}.png"  # noqa: E731

    # The console, in the organizer's browser language; the kit opened from it.
    console = new_context(viewport=LAPTOP_900, locale=BROWSER_LOCALE[language]).new_page()
    sign_in_as(console, live_server, organizer, language)
    kit_url = live_server.url + reverse("kit:event_kit", args=[event.pk]) + "?table=1"
    kit = console.context.new_page()
    kit.goto(kit_url)
    expect(kit.locator("html")).to_have_attribute("lang", language)
    sheet, guide = kit.locator("section.rule-sheet"), kit.locator("section.guide")
    expect(sheet).to_have_count(1)
    snap(sheet, shot("rule-sheet"))
    snap(guide, shot("players-guide"))
    snap(kit.locator(".kit-toolbar"), more("kit-toolbar"))
    findings.english(kit, "kit")
    findings.overflow(kit, "kit")
    # A sheet's height on screen is the printed page's: the print check below measures it.
    findings.problems = [p for p in findings.problems if "section.sheet" not in p]
    # As printed: nothing may run off a page, on either paper, at any table.
    for paper, (width_mm, height_mm) in PAPERS.items():
        kit.set_viewport_size(
            {"width": round(width_mm / 25.4 * 96), "height": round(height_mm / 25.4 * 96)}
        )
        kit.goto(live_server.url + reverse("kit:event_kit", args=[event.pk]) + f"?paper={paper}")
        kit.emulate_media(media="print")
        sheets = kit.locator("section.sheet")
        for index in range(sheets.count()):
            spill = sheets.nth(index).evaluate(SHEET_SPILL)
            if spill["px"] > 0:
                snap(sheets.nth(index), more(f"print-{paper}-page-{index + 1}"))
                findings.problems.append(
                    f"kit on {paper}: {spill['label']} runs {spill['px']}px past the page "
                    f"(ends: …{spill['last']})"
                )
        kit.emulate_media(media="screen")
    kit.close()

    # Round 1, one game reported at table 1.
    event = play_a_little(factories.start_rounds(event))
    phone = new_context(viewport=PHONE, has_touch=True, is_mobile=True).new_page()
    phone.goto(live_server.url + reverse("phone:table", args=[factories.table(event, 1).token]))
    expect(phone.locator("html")).to_have_attribute("lang", language)
    expect(phone.locator("#live .game")).to_have_count(1)
    snap(phone, shot("phone-round"), full_page=True)
    findings.english(phone, "phone-round")
    findings.overflow(phone, "phone-round")

    projector = new_context(viewport=PROJECTOR, reduced_motion="reduce").new_page()
    projector.goto(live_server.url + reverse("projector:screen", args=[event.projector_token]))
    expect(projector.locator("html")).to_have_attribute("lang", language)
    expect(projector.locator("#stage.screen-round")).to_be_visible()
    projector_shot(projector, shot("projector-standings"))
    findings.english(projector, "projector-standings")
    findings.overflow(projector, "projector-standings")
    findings.projector_fit(projector, "projector-standings")

    console.goto(live_server.url + reverse("organizer:event", args=[event.pk]))
    expect(console.locator("html")).to_have_attribute("lang", language)
    expect(console.locator("#phase-title")).to_be_visible()
    snap(console, shot("console"))
    # Each panel of the page on its own, readable at full size.
    for panel in console.locator("main section.panel[id]").all():
        if panel.is_visible():
            snap(panel, more(f"console-{panel.get_attribute('id')}"))
    findings.english(console, "console")
    findings.overflow(console, "console")
    # The close page, whose German buttons are the console's longest.
    console.goto(live_server.url + reverse("organizer:close_round", args=[event.pk, 1]))
    expect(console.locator("button.big")).to_be_visible()
    snap(console, more("close-round"), full_page=True)
    findings.english(console, "close-round")
    findings.overflow(console, "close-round")

    # Round 1 closed: the moves.
    factories.close_current_round(event, organizer)
    expect(projector.locator("#stage.screen-moves")).to_be_visible(timeout=12_000)
    projector_shot(projector, shot("projector-moves"))
    findings.english(projector, "projector-moves")
    findings.overflow(projector, "projector-moves")
    findings.projector_fit(projector, "projector-moves")

    for page in (phone, projector, console):
        page.goto("about:blank")
    findings.check()
