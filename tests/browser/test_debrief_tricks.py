"""The tricks' story in a real browser: the console's page shows the story beside the clash
map, a trick replayed with the players numbered until the organizer shows their names, and
the table's pad at the end of the chosen game, with htmx and without JavaScript; the
printed report has each round's chart; the projector's tricks' screen reads from the back
of the room at 1920x1080.

With SCREENSHOTS=1 the projector's screen, the console's page and the report's charts are
saved under ./screenshots/debrief/ to be looked at.
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.browser.conftest import LAPTOP, PROJECTOR, pictures, sign_in, snap
from tests.browser.test_content_security_policy import Watch
from tests.browser.test_projector_legibility import measure
from tests.debrief_screens import AGREED_AFTER, story_event
from tournament.models import DebriefStep
from tournament.writes.rounds import step_debrief
from tournament.writes.signin import ensure_organizer

pytestmark = pytest.mark.django_db(transaction=True)


def seated_names(event, table: int) -> list[str]:
    from tables.models import Deal

    deal = Deal.objects.get(
        round__event=event, round__number=1, table__number=table, number=1, practice=False
    )
    return list(event.players.filter(pk__in=deal.seats).values_list("name", flat=True))


def test_the_console_replays_a_trick_with_names_hidden_then_shown(
    live_server, new_context, tmp_path
):
    organizer, _created = ensure_organizer()
    event = story_event(organizer)
    shots = pictures("debrief", tmp_path)
    page = new_context(viewport=LAPTOP).new_page()
    watch = Watch(page)  # the Content-Security-Policy refuses nothing on the way
    sign_in(page, live_server, organizer)
    page.goto(live_server.url + reverse("organizer:event", args=[event.pk]))
    page.get_by_role("link", name="The tricks’ story and replays").click()
    expect(page.locator("h1")).to_have_text("The tricks’ story")
    expect(page.locator("svg.chart-tricks")).to_be_visible()
    expect(page.locator("svg.chart-grid")).to_be_visible()
    snap(page, shots / "console-tricks-story.png", full_page=True)

    page.evaluate("window.samePage = true")  # gone if the page loads again
    page.get_by_label("Round", exact=True).select_option("1")
    page.get_by_label("Table", exact=True).select_option("1")
    page.get_by_label("Game", exact=True).select_option("1")
    page.get_by_label("Trick", exact=True).select_option("1")
    page.get_by_role("button", name="Show", exact=True).click()
    replay = page.locator(".replay")
    expect(replay).to_contain_text("Player 1")
    expect(replay).to_contain_text(f"after {AGREED_AFTER} s")
    assert "trick=1" in page.url, "the address follows the choice"
    assert page.evaluate("window.samePage === true"), "htmx swapped the choice alone"
    expect(page.locator("#choice-show")).to_be_focused()
    names = seated_names(event, 1)
    assert not any(name in page.locator("#choice").inner_text() for name in names)
    pad = page.locator("#choice .pad-view")
    expect(pad).to_be_visible()
    assert pad.locator("polyline").count() == 1, "the pad as it was when game 1 ended"
    expect(page.locator(".disputed-tricks")).to_contain_text("Trick 1")
    expect(page.locator("svg.chart-tricks").nth(1)).to_be_visible()  # the round in detail

    page.locator(".names-toggle").get_by_role("link", name="Show names").click()
    expect(page.locator(".names-toggle")).to_contain_text("Names are shown.")
    text = page.locator(".replay").inner_text()
    assert all(name in text for name in names)
    assert "names=1" in page.url
    snap(page, shots / "console-trick-replayed.png", full_page=True)

    page.goto(live_server.url + reverse("organizer:debrief_report", args=[event.pk]))
    for number in (1, 2):
        expect(page.locator(f"#tricks-round-{number} svg.chart-tricks")).to_be_visible()
    snap(page.locator("#chart-tricks"), shots / "report-tricks.png")
    assert watch.violations() == []


def test_without_javascript_the_choice_is_a_plain_form(live_server, new_context):
    organizer, _created = ensure_organizer()
    event = story_event(organizer)
    context = new_context(viewport=LAPTOP, java_script_enabled=False)
    page = context.new_page()
    sign_in(page, live_server, organizer)
    page.goto(live_server.url + reverse("organizer:debrief_tricks", args=[event.pk]))
    page.get_by_label("Round", exact=True).select_option("1")
    page.get_by_label("Table", exact=True).select_option("2")
    page.get_by_label("Game", exact=True).select_option("1")
    page.get_by_label("Trick", exact=True).select_option("1")
    page.get_by_label("Show names").check()
    page.get_by_role("button", name="Show", exact=True).click()
    expect(page.locator(".replay-end")).to_contain_text("Settled by the organizer")
    text = page.locator(".replay").inner_text()
    assert all(name in text for name in seated_names(event, 2))


def test_the_projectors_tricks_story_reads_from_the_back_of_the_room(
    live_server, new_context, tmp_path
):
    organizer, _created = ensure_organizer()
    event = step_debrief(event=story_event(organizer), to_step=DebriefStep.TRICKS)
    page = new_context(viewport=PROJECTOR, reduced_motion="reduce").new_page()
    watch = Watch(page)
    page.goto(live_server.url + reverse("projector:screen", args=[event.projector_token]))
    page.evaluate("document.body.classList.add('is-idle')")  # the corner tools hidden
    expect(page.locator("h1")).to_have_text("The tricks’ story")
    chart = page.locator("svg.chart-tricks")
    expect(chart).to_be_visible()
    snap(page, shots_at(tmp_path) / "projector-8-tricks-1080p.png")
    problems: list[str] = []
    measure(page, "tricks", problems)
    assert problems == [], "\n".join(problems)
    fit = page.evaluate(
        "() => document.documentElement.scrollHeight > innerHeight"
        " || document.documentElement.scrollWidth > innerWidth"
    )
    assert not fit, "the screen scrolls"
    box = chart.bounding_box()
    assert box is not None
    # What tests/tournament/rules/charts/test_tricks.py takes for the chart's box.
    assert box["width"] >= 1800
    assert box["height"] >= 640
    names = list(event.players.values_list("name", flat=True))
    shown = page.locator("main").inner_text()
    assert not any(name in shown for name in names)
    assert watch.violations() == []


def shots_at(tmp_path):
    return pictures("debrief", tmp_path)
