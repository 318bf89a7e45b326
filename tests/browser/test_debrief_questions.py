"""The debrief questions' editor in a real browser at the laptop's size: a refused question
keeps its words, a move shows at once, and nothing stretches the page sideways.

`make screenshots` (SCREENSHOTS=1) keeps its pictures in ./screenshots/console/.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests import factories
from tests.browser.conftest import LAPTOP, pictures, sign_in, snap
from tournament.models import DebriefQuestion
from tournament.rules.debrief_questions import Stage
from tournament.writes.rounds import start_debrief
from tournament.writes.signin import ensure_organizer

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def shots_dir(tmp_path) -> Path:
    return pictures("console", tmp_path)


def no_sideways_scroll(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0


def test_the_editor_keeps_refused_words_and_moves_questions(live_server, new_context, shots_dir):
    organizer, _ = ensure_organizer()
    event = factories.make_event(owner=organizer)
    page = new_context(viewport=LAPTOP).new_page()
    sign_in(page, live_server, organizer)
    page.goto(live_server.url + reverse("organizer:event", args=[event.pk]))
    page.get_by_role("link", name="Debrief questions").click()
    expect(page.locator("h1")).to_have_text("Debrief questions")
    snap(page, shots_dir / "debrief-questions-1366x768.png")
    no_sideways_scroll(page)

    first, second, _third = DebriefQuestion.objects.filter(
        event=event, stage=Stage.NOTICING
    ).order_by("position")
    row = page.locator(f"#question-{second.pk}")
    typed = "What " + "W" * 300 + "?"
    row.locator("textarea").fill(typed)
    row.get_by_role("button", name="Save").click()
    refused = page.locator(f"#question-{second.pk}")
    expect(refused.locator(".form-errors")).to_contain_text("at most 240 characters")
    expect(refused.locator("textarea")).to_have_value(typed)
    no_sideways_scroll(page)
    snap(page, shots_dir / "debrief-questions-refused-1366x768.png")
    assert DebriefQuestion.objects.get(pk=second.pk).text == second.text
    page.locator("#reset").scroll_into_view_if_needed()
    snap(page, shots_dir / "debrief-questions-add-reset-1366x768.png")

    page.get_by_role("button", name="Move question 8 up").click()
    stage = page.locator("#stage-noticing .question-row")
    expect(stage.first).to_have_id(f"question-{second.pk}")
    expect(stage.nth(1)).to_have_id(f"question-{first.pk}")


def test_the_consoles_debrief_panel_fits_the_laptop(live_server, new_context, shots_dir):
    organizer, _ = ensure_organizer()
    event = factories.start_rounds(
        factories.seated_event(owner=organizer, players=8, tables=2, rounds_planned=1)
    )
    factories.close_current_round(event, organizer)
    event = start_debrief(event=event)
    page = new_context(viewport=LAPTOP).new_page()
    sign_in(page, live_server, organizer)
    page.goto(live_server.url + reverse("organizer:event", args=[event.pk]))
    page.get_by_role("button", name=re.compile("^Next: Question 1")).click()
    expect(page.locator(".debrief-now strong")).to_have_text("Question 1 of 18")
    expect(page.locator(".debrief-question")).to_contain_text("How it felt")
    no_sideways_scroll(page)
    snap(page, shots_dir / "console-debrief-question-1366x768.png")
