"""Screenshots of every debrief screen on the projector, at 1920x1080 and 1280x720,
before the rules are revealed and after.

`make screenshots` (SCREENSHOTS=1) writes them to ./screenshots/debrief/, which git
ignores, for anyone to look at; the normal suite writes them to a temporary folder and
checks what the room would notice: the screen's title, nothing scrolling, and no
table's rules named before the reveal.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse

from tests.browser.conftest import PROJECTOR, pictures, snap
from tournament.models import SCREEN_EVENT_STEPS, DebriefStep, Event
from tournament.writes.debrief_bank import show_question
from tournament.writes.rounds import reveal_rules, start_debrief, step_debrief

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = {"1080p": PROJECTOR, "720p": {"width": 1280, "height": 720}}
VARIANT_OF_A_TABLE = re.compile(
    r"ace\s+high|ace\s+low|hearts|diamonds|clubs|spades|[♥♦♣♠]|trump:", re.IGNORECASE
)


@pytest.fixture
def shots_dir(tmp_path) -> Path:
    return pictures("debrief", tmp_path)


def test_every_debrief_screen_before_and_after_the_reveal(live_server, new_context, shots_dir):
    call_command("demo_event", "--players", "24", "--rounds", "3")
    event = start_debrief(event=Event.objects.get())
    url = live_server.url + reverse("projector:screen", args=[event.projector_token])
    pages = {
        size: new_context(viewport=viewport, reduced_motion="reduce").new_page()
        for size, viewport in SIZES.items()
    }
    for revealed in (False, True):
        if revealed:
            reveal_rules(event=event)
        for step in DebriefStep:
            if step in SCREEN_EVENT_STEPS:
                continue  # a room event's debrief has no tricks' story
            if step == DebriefStep.QUESTION:
                show_question(event=event, question_id=event.debrief_questions.first().pk)
            else:
                step_debrief(event=event, to_step=step)
            name = f"{step.value}-{step.name.lower()}-{'revealed' if revealed else 'hidden'}"
            for size, page in pages.items():
                page.goto(url)
                page.evaluate("document.body.classList.add('is-idle')")  # tools hidden
                snap(page, shots_dir / f"projector-{name}-{size}.png")
                assert page.locator("h1").first.inner_text().strip(), name
                fit = page.evaluate(
                    "() => ({scrolls: document.documentElement.scrollHeight > innerHeight"
                    " || document.documentElement.scrollWidth > innerWidth})"
                )
                assert not fit["scrolls"], f"{name} at {size} scrolls"
                if not revealed:
                    shown = VARIANT_OF_A_TABLE.search(page.locator("main").inner_text())
                    assert shown is None, (name, shown and shown.group())
