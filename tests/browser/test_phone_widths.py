"""Every phone page on the narrowest screens a player brings: 320 px (a small phone) and
195 px (a 390 px phone zoomed to 200 %), in English and in French (the longer words), walked
like the 390 px walk of test_phones.py.

Terms:
    narrow      a viewport of 320 or 195 CSS pixels; the page must fit it: nothing wider
                than the screen, no box that cuts or spills its text (screen_checks'
                OVERFLOW_REPORT), and the header's clock whole on the screen.
    room view   the table's page (the link on the tent card) and the player's page (the
                players' link), each in its own browser context, one per language.

With SCREENSHOTS=1 each page is also pictured into ./screenshots/phone-narrow/.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import Page

from tests import factories
from tests.browser.conftest import pictures, requests_answered, snap
from tests.browser.screen_checks import OVERFLOW_REPORT
from tests.browser.test_phones import PLAYERS
from tournament.common.languages import PHONE_LANGUAGE_COOKIE
from tournament.models import DebriefQuestion
from tournament.rules.debrief_questions import AnswerKind
from tournament.writes.debrief_bank import show_question
from tournament.writes.signin import ensure_organizer

pytestmark = pytest.mark.django_db(transaction=True)

LANGUAGES = ("en", "fr")
# The header's clock: its box, which must lie inside the screen.
CLOCK_BOX = """() => [...document.querySelectorAll('.phone-head .clock')].map((el) => {
  const box = el.getBoundingClientRect();
  return {left: box.left, right: box.right, width: innerWidth};
})"""

# A control or a picture past the page's column (its content box): the 5th face of a scale
# 5 px out, though still on the screen.
CONTROLS_OUT = """() => {
  const main = document.querySelector('main');
  const style = getComputedStyle(main), box = main.getBoundingClientRect();
  const left = box.left + parseFloat(style.paddingLeft);
  const right = box.right - parseFloat(style.paddingRight);
  return [...main.querySelectorAll('button, .button, input, select, textarea, svg')]
    .filter((el) => el.getClientRects().length && !el.closest('[hidden], .visually-hidden'))
    .map((el) => [el, el.getBoundingClientRect()])
    .filter(([, r]) => r.right > right + 1 || r.left < left - 1)
    .map(([el, r]) => `${el.tagName.toLowerCase()} "${(el.textContent || el.getAttribute(
        'aria-label') || '').trim().slice(0, 40)}" ${Math.round(r.left)}..${Math.round(r.right)}` +
        ` in ${Math.round(left)}..${Math.round(right)}`);
}"""


def phone_problems(page: Page, where: str) -> list[str]:
    """What a player would notice on a narrow screen: the page or a box too wide, a text
    cut or spilling, the clock cut off."""
    problems = [f"{where}: {problem}" for problem in page.evaluate(OVERFLOW_REPORT, None)]
    for control in page.evaluate(CONTROLS_OUT):
        problems.append(f"{where}: sticks out of the page's column: {control}")
    for clock in page.evaluate(CLOCK_BOX):
        if clock["left"] < 0 or clock["right"] > clock["width"] + 0.5:
            problems.append(f"{where}: the clock is cut off ({clock})")
    return problems


@pytest.mark.parametrize("width", [320, 195])
def test_every_phone_page_fits_a_narrow_screen(live_server, new_context, tmp_path, width):
    folder = pictures("phone-narrow", tmp_path)
    organizer, _ = ensure_organizer()
    event = factories.seated_event(owner=organizer, players=PLAYERS, tables=2, rounds_planned=2)
    table = factories.table(event, 1)
    viewport = {"width": width, "height": 640}
    table_url = live_server.url + reverse("phone:table", args=[table.token])
    player_url = live_server.url + reverse("phone:player_home", args=[event.players_token])
    tricks_url = live_server.url + reverse("phone:tricks", args=[table.token])
    phones: dict[str, Page] = {}
    players: dict[str, Page] = {}
    for language in LANGUAGES:
        for pages in (phones, players):
            context = new_context(viewport=viewport, has_touch=True, is_mobile=True)
            host = live_server.url.split("//")[1].split(":")[0]
            context.add_cookies([{"name": PHONE_LANGUAGE_COOKIE, "value": language,
                                  "domain": host, "path": "/"}])  # fmt: skip
            pages[language] = context.new_page()
    problems: list[str] = []

    def look(page: Page, url: str, name: str) -> None:
        page.goto(url)
        page.wait_for_selector("main")
        problems.extend(phone_problems(page, f"{width}px {name}"))
        snap(page, folder / f"{width}-{name}.png")
        snap(page, folder / f"{width}-{name}-full.png", full_page=True)

    for language in LANGUAGES:
        look(players[language], player_url, f"player-0-pick-{language}")
        players[language].get_by_role("button", name=PLAYERS[0]).click()

    steps = ["setup", "study", "practice", "round", "round-games", "between", "debrief"]
    for number, step in enumerate(steps, start=1):
        if step == "round-games":
            names = factories.seated_names(event, 1)
            for winner in names[:3]:
                factories.report(event, 1, winner)
            factories.report(event, 1, names[4])  # another phone's report, to confirm
            # Time is up: the note in red, the clock at 0:00.
            event.clock_ends_at = timezone.now() - timedelta(seconds=5)
            event.save_and_bump(["clock_ends_at"])
        elif step == "debrief":
            event = factories.play_until(event, "debrief", by=organizer)
            scale = DebriefQuestion.objects.get(event=event, answer_kind=AnswerKind.SCALE)
            show_question(event=event, question_id=scale.pk)
        elif step != "setup":
            event = factories.play_until(event, step, by=organizer)
        for language in LANGUAGES:
            look(phones[language], table_url, f"table-{number}-{step}-{language}")
            look(players[language], player_url, f"player-{number}-{step}-{language}")
            if step == "round":
                look(phones[language], tricks_url, f"table-{number}-tricks-{language}")

    invalid = live_server.url + reverse("phone:table", args=["a-rotated-token"])
    for language in LANGUAGES:
        look(phones[language], invalid, f"table-invalid-link-{language}")
        phones[language].goto("about:blank")
        players[language].goto("about:blank")
    requests_answered()
    assert problems == [], "\n".join(problems)
