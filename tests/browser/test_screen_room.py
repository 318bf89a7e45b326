"""A remote player's own screen follows the debrief in a real browser: the organizer steps
it from the console, and a phone at 390 px and a laptop at 1366x768 show each step as the
projector does (the clash map, a question they answer right there, the next screen)
without a reload, no table's rules before the reveal, and nothing to scroll sideways.

With SCREENSHOTS=1 both screens are saved on the clash map and on a question under
./screenshots/screen-debrief/ to be looked at.
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tables.models import ScreenSeat
from tests import factories
from tests.browser.conftest import LAPTOP, PHONE, pictures, sign_in, snap
from tests.browser.test_content_security_policy import Watch
from tests.browser.test_debrief import VARIANT_OF_A_TABLE, show_screen
from tests.debrief_screens import story_event
from tests.screen_factories import screen_event
from tournament.common.phone_ids import signed_phone_id
from tournament.models import DebriefAnswer, DebriefQuestion, DebriefStep, Player
from tournament.writes.debrief_bank import set_paths_highlight, show_question
from tournament.writes.rounds import reveal_rules
from tournament.writes.signin import ensure_organizer

pytestmark = pytest.mark.django_db(transaction=True)

# A player's screen polls every half second (its live channel is not served by the test
# server); a step must be on it within a few polls.
FOLLOW_MS = 6_000


def no_sideways_scroll(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"{width} px wide: it scrolls sideways"


def no_rules_named(page) -> None:
    shown = VARIANT_OF_A_TABLE.search(page.locator(".room-screen").inner_text())
    assert shown is None, shown.group()


def test_a_players_screen_follows_the_debrief_the_organizer_steps(
    live_server, new_context, tmp_path
):
    organizer, _created = ensure_organizer()
    event = story_event(organizer)
    shots = pictures("screen-debrief", tmp_path)
    console = new_context(viewport=LAPTOP).new_page()
    sign_in(console, live_server, organizer)
    console.goto(live_server.url + reverse("organizer:event", args=[event.pk]))
    players = list(Player.objects.filter(event=event).order_by("pk")[:2])
    screens = []
    for player, viewport in zip(players, (PHONE, LAPTOP), strict=True):
        context = new_context(viewport=viewport)
        # This browser is the device the player played from, so it holds the seat.
        device = f"browser-device-{player.pk:06d}"
        ScreenSeat.objects.filter(player=player).update(device=device)
        cookie = signed_phone_id(device)
        context.add_cookies([{"name": "ft_phone", "value": cookie, "url": live_server.url}])
        page = context.new_page()
        watch = Watch(page)  # the Content-Security-Policy refuses nothing on the way
        page.goto(live_server.url + reverse("phone:screen", args=[player.token]))
        page.evaluate("window.stillTheSamePage = true")  # gone after any reload
        screens.append((page, watch, viewport["width"]))
    title = "#room-title, #answer-question"

    show_screen(console, DebriefStep.CLASHES.label)
    for page, _watch, width in screens:
        expect(page.locator(title)).to_have_text("Which rules met at each table", timeout=FOLLOW_MS)
        expect(page.locator(".room-chart svg.chart-grid")).to_be_visible()
        no_rules_named(page)
        no_sideways_scroll(page)
        snap(page, shots / f"clash-map-{width}.png", full_page=True)

    # A question: answered on each screen, and a second tap on the same answer counts once.
    question = DebriefQuestion.objects.filter(event=event, answer_kind="scale").first()
    console.get_by_label("Go to").select_option(f"question:{question.pk}")
    console.get_by_role("button", name="Show on the projector").click()
    for page, _watch, width in screens:
        expect(page.locator("#answer-question")).to_have_text(question.text, timeout=FOLLOW_MS)
        expect(page.locator("#announce")).to_have_text(question.text)  # said once, aloud
        no_sideways_scroll(page)
        page.locator("#answer-4").click()
        expect(page.locator("[data-answer-notice]")).to_contain_text("your answer is in")
        expect(page.locator("#answer-4")).to_have_attribute("aria-pressed", "true")
        page.locator("#answer-4").click()  # the same answer again changes nothing
        expect(page.locator("#announce")).to_contain_text("your answer is in")
        snap(page, shots / f"question-{width}.png", full_page=True)
    assert DebriefAnswer.objects.filter(question=question).count() == len(screens)

    show_screen(console, DebriefStep.PATHS.label)
    for page, _watch, _width in screens:
        expect(page.locator(title)).to_have_text("Every player’s path", timeout=FOLLOW_MS)
        expect(page.locator("#announce")).to_have_text("Every player’s path")
        expect(page.locator("#answer")).to_have_count(0)

    # The tricks' story: its bars drawn, whatever the page's own rules for a trick in play.
    show_screen(console, DebriefStep.TRICKS.label)
    for page, watch, _width in screens:
        expect(page.locator(title)).to_have_text("The tricks’ story", timeout=FOLLOW_MS)
        expect(page.locator(".room-chart rect.trick").first).to_be_visible()
        no_sideways_scroll(page)
        assert page.evaluate("window.stillTheSamePage === true"), "the screen reloaded"
        assert watch.violations() == []


def open_screen(live_server, new_context, player, viewport):
    """The player's screen on a device of its own (no seat to take between rounds)."""
    page = new_context(viewport=viewport).new_page()
    page.goto(live_server.url + reverse("phone:screen", args=[player.token]))
    return page


def test_between_rounds_and_at_the_reveal_a_screen_shows_the_rooms_board_and_cards(
    live_server, new_context, tmp_path
):
    organizer, _created = ensure_organizer()
    event = screen_event(owner=organizer, players=20, tables=4, rounds_planned=2)
    event = factories.play_until(event, "between", by=organizer)
    shots = pictures("screen-debrief", tmp_path)
    player = Player.objects.filter(event=event).order_by("pk").first()
    for viewport in (PHONE, LAPTOP):
        page = open_screen(live_server, new_context, player, viewport)
        expect(page.locator("#room-title")).to_have_text("Moves for round 2")
        expect(page.locator(".room-screen .row")).to_have_count(20)
        no_sideways_scroll(page)
        snap(page, shots / f"moves-{viewport['width']}.png", full_page=True)

    event = factories.play_until(event, "debrief", by=organizer)
    reveal_rules(event=event)
    for viewport in (PHONE, LAPTOP):
        page = open_screen(live_server, new_context, player, viewport)
        expect(page.locator("#room-title")).to_have_text("Each table’s rules")
        expect(page.locator(".room-rule")).to_have_count(4)
        no_sideways_scroll(page)
        snap(page, shots / f"rules-{viewport['width']}.png", full_page=True)


def test_a_word_being_typed_on_the_screen_survives_the_pages_refresh(
    live_server, new_context, tmp_path
):
    organizer, _created = ensure_organizer()
    event = screen_event(owner=organizer, players=10, tables=2, rounds_planned=1)
    event = factories.play_until(event, "debrief", by=organizer)
    question = DebriefQuestion.objects.filter(event=event, answer_kind="words").first()
    show_question(event=event, question_id=question.pk)
    player = Player.objects.filter(event=event).order_by("pk").first()
    page = open_screen(live_server, new_context, player, PHONE)
    field = page.get_by_label("A word or a few (at most 40 characters)")
    field.fill("curi")
    etag = page.locator("#live").get_attribute("data-etag")

    set_paths_highlight(event=event, highlight="climbers")  # news for every screen
    expect(page.locator("#live")).not_to_have_attribute("data-etag", etag, timeout=FOLLOW_MS)
    expect(field).to_have_value("curi")
    expect(field).to_be_focused()
    field.press("End")
    field.type("ous")
    field.press("Enter")
    expect(page.locator("[data-answer-notice]")).to_contain_text("your answer is in (curious)")
    assert DebriefAnswer.objects.get(question=question).text == "curious"
