"""The debrief report printed by Chromium to PDF, on A4 and on US Letter: clean pages,
each with something on it, the toolbar left out, long tables with their headers again.

`make screenshots` (SCREENSHOTS=1) also keeps the PDFs and their pages as PNG under
./screenshots/debrief/ (pdftoppm, where poppler is installed) for a person to look at.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse
from playwright.sync_api import expect

from tests.browser.conftest import LAPTOP, SCREENSHOTS, pictures, sign_in, snap
from tests.browser.pdf_pages import page_texts, pdf_pages, render_pngs
from tests.tools import missing
from tournament.models import Event
from tournament.reads.debrief_report import build_report
from tournament.writes.finishing import finish_event
from tournament.writes.rounds import start_debrief
from tournament.writes.signin import ensure_organizer

pytestmark = pytest.mark.django_db(transaction=True)

PAPERS = {"a4": (210, 297), "letter": (215.9, 279.4)}


@pytest.fixture
def out_dir(tmp_path) -> Path:
    return pictures("debrief", tmp_path)


def words_of(pdf_path: Path) -> list[str]:
    """Each printed page's words (pdftotext); the test skips without it, fails under CI."""
    texts = page_texts(pdf_path)
    if texts is None:
        missing(
            "pdftotext is missing, so the report's words were not checked. Install it with "
            "`sudo apt-get install -y poppler-utils` (make test does this as root)."
        )
    return texts


def rehearsed(players: int, rounds: int = 3) -> tuple[object, Event]:
    """The rehearsal event (manage.py demo_event), finished after its debrief."""
    organizer, _created = ensure_organizer()
    call_command("demo_event", "--players", str(players), "--rounds", str(rounds))
    event = Event.objects.latest("pk")
    return organizer, finish_event(event=start_debrief(event=event))


def open_report(new_context, live_server, organizer, event, paper: str):
    page = new_context(viewport=LAPTOP).new_page()
    sign_in(page, live_server, organizer)
    url = reverse("organizer:debrief_report", args=[event.pk])
    page.goto(f"{live_server.url}{url}?paper={paper}")
    return page


@pytest.mark.parametrize("paper", list(PAPERS))
def test_the_report_prints_to_clean_numbered_pages(live_server, new_context, out_dir, paper):
    organizer, event = rehearsed(24)
    page = open_report(new_context, live_server, organizer, event, paper)
    expect(page.locator(".report-toolbar")).to_be_visible()
    snap(page, out_dir / f"report-screen-{paper}.png")
    page.emulate_media(media="print")
    expect(page.locator(".report-toolbar")).to_be_hidden()
    expect(page.locator("svg.chart")).to_have_count(4)

    pdf_path = out_dir / f"report-{paper}.pdf"
    page.pdf(path=str(pdf_path), prefer_css_page_size=True)
    pages = pdf_pages(pdf_path.read_bytes())

    width, height = PAPERS[paper]
    assert 3 <= len(pages) <= 8, len(pages)
    for number, printed in enumerate(pages, start=1):
        assert abs(printed.width_mm - width) < 1
        assert abs(printed.height_mm - height) < 1
        assert printed.shows_text, f"page {number} is blank"
    assert sum(printed.paints for printed in pages) > 100, "the charts are drawn"
    texts = words_of(pdf_path)
    assert len(texts) == len(pages)
    assert event.name in texts[0]
    assert "Settings" in texts[0]
    for number, text in enumerate(texts, start=1):
        assert re.search(rf"\b{number}\s*/\s*{len(pages)}\s*$", text), f"page {number}"
    assert "Final ladder, after round 3" in "".join(texts)
    assert all("Console" not in text and "Print the report" not in text for text in texts)
    if SCREENSHOTS:
        render_pngs(pdf_path, out_dir / f"report-{paper}")


def test_a_long_ladder_repeats_its_headers_and_cuts_no_row(live_server, new_context, out_dir):
    organizer, event = rehearsed(120, rounds=2)
    page = open_report(new_context, live_server, organizer, event, "a4")
    pdf_path = out_dir / "report-a4-120-players.pdf"
    page.pdf(path=str(pdf_path), prefer_css_page_size=True)
    pages = pdf_pages(pdf_path.read_bytes())
    assert all(printed.shows_text for printed in pages)
    texts = words_of(pdf_path)
    ladder_pages = [text for text in texts if "Place" in text and "Climb" in text]
    assert len(ladder_pages) >= 2, "120 rows run over more than one page"
    places = [
        int(line.split()[0])
        for text in ladder_pages
        for line in text.splitlines()
        if line.split() and line.split()[0].isdigit() and len(line.split()) >= 4
    ]
    seated = len(build_report(event).ladder)  # one player sat the last round out
    assert places[-seated:] == list(range(1, seated + 1)), "every row once, none cut in two"
    if SCREENSHOTS:
        render_pngs(pdf_path, out_dir / "report-a4-120-players")


def test_the_organizer_finishes_the_event_from_the_console_and_it_turns_read_only(
    live_server, new_context, out_dir
):
    organizer, _created = ensure_organizer()
    call_command("demo_event", "--players", "12", "--rounds", "2")
    event = start_debrief(event=Event.objects.get())
    page = new_context(viewport=LAPTOP).new_page()
    sign_in(page, live_server, organizer)
    page.goto(live_server.url + reverse("organizer:event", args=[event.pk]))
    expect(page.get_by_role("button", name="Accept")).to_be_visible()  # a late report

    page.locator("summary", has_text="Finish the event").click()  # asks in the page
    expect(page.locator("#confirm-finish")).to_contain_text("It becomes read-only")
    page.get_by_role("button", name="Yes, finish the event").click()

    expect(page.locator("#finished-note")).to_contain_text("this event is read-only")
    expect(page.get_by_role("button", name="Accept")).to_have_count(0)
    expect(page.get_by_role("button", name="Add to the roster")).to_have_count(0)
    expect(page.locator("summary", has_text="Reopen the event")).to_be_visible()
    expect(page.get_by_role("link", name="Printable report (opens in a new tab)")).to_be_visible()
    snap(page.locator("#phase"), out_dir / "console-finished.png")
    assert Event.objects.get(pk=event.pk).is_finished
