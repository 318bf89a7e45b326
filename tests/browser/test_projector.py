"""The projector in a real browser: it follows the room live, without a reload, and never
shows a table's rules before the reveal."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests import factories
from tests.browser.conftest import PROJECTOR, count_htmx_requests
from tests.browser.test_screenshots import room_names
from tournament.writes.rounds import advance_phase, reveal_rules, start_debrief

pytestmark = pytest.mark.django_db(transaction=True)

# A reported game must be on the screen within 3 s (2 s polling plus the request).
LIVE_MS = 3_500
TIME_UP = "Time is up: finish the trick in play, then report."
VARIANT_GIVEAWAY = re.compile(
    r"ace\s+high|ace\s+low|hearts|diamonds|clubs|spades|trump|[♥♦♣♠]", re.IGNORECASE
)


def open_projector(live_server, new_context, event, view: str = "", viewport=PROJECTOR):
    page = new_context(viewport=viewport).new_page()
    url = live_server.url + reverse("projector:screen", args=[event.projector_token])
    page.goto(url + (f"?view={view}" if view else ""))
    # Survives htmx swaps, not a reload: proves the screen changed by itself.
    page.evaluate("window.__sameDocument = true")
    return page


def shows_no_variant(page) -> None:
    text = page.locator("body").inner_text()
    found = VARIANT_GIVEAWAY.search(text)
    assert found is None, found
    assert VARIANT_GIVEAWAY.search(page.content().replace("d=", "")) is None


def games_of(page, name: str):
    return page.locator("li.row", has=page.get_by_text(name, exact=True)).locator(".games")


def test_the_projector_follows_reports_and_the_round_close_without_a_reload(
    live_server, new_context, organizer
):
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=12, tables=3))
    first, second = factories.seated_names(event, 2)[:2]
    page = open_projector(live_server, new_context, event)
    expect(games_of(page, first)).to_have_text("0")
    shows_no_variant(page)

    factories.report(event, 2, first)  # as a phone at table 2 would
    expect(games_of(page, first)).to_have_text("1", timeout=LIVE_MS)

    factories.report(event, 2, second)
    factories.report(event, 2, second)
    expect(games_of(page, second)).to_have_text("2", timeout=LIVE_MS)
    # The table's order follows: the leader is listed first.
    table_two = page.locator(".fragment", has=page.get_by_text(second, exact=True))
    expect(table_two.locator(".name").first).to_have_text(second)
    shows_no_variant(page)

    factories.close_current_round(event, organizer)
    expect(page.get_by_role("heading", name="Moves for round 2")).to_be_visible(timeout=LIVE_MS)
    mover = page.locator("li.row", has=page.get_by_text(second, exact=True))
    expect(mover.locator(".dest")).to_have_text(re.compile(r"\b3$"))
    shows_no_variant(page)
    assert page.evaluate("window.__sameDocument") is True


def test_time_up_turns_the_screen_red_when_the_clock_reaches_zero(
    live_server, new_context, organizer
):
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=8, tables=2))
    page = open_projector(live_server, new_context, event)
    expect(page.locator("body")).not_to_have_class(re.compile("time-up"))

    event.refresh_from_db()
    event.end_clock_now()
    event.save_and_bump(["clock_ends_at", "clock_paused_remaining"])

    expect(page.locator("body")).to_have_class(re.compile("time-up"), timeout=LIVE_MS)
    # The phones say the same words.
    expect(page.get_by_role("alert")).to_have_text(TIME_UP)
    expect(page.locator(".band")).to_have_css(
        "background-color", "rgb(166, 27, 18)"
    )  # --alert: 7.5:1 under white


BAND_SPILLS = """() => {
    const band = document.querySelector('.band').getBoundingClientRect();
    return [...document.querySelectorAll('.band-title, .band .time-up-note, .band .time-up-note p,'
        + ' .band .time-up-note strong, .band .stop-sign, .band .clock-box')]
      .filter((el) => el.getClientRects().length)
      .filter((el) => {
        const box = el.getBoundingClientRect();
        return box.top < band.top - 1 || box.bottom > band.bottom + 1 ||
               box.left < band.left - 1 || box.right > band.right + 1;
      })
      .map((el) => el.className.baseVal ?? el.className);
}"""


def stage_changes(page, etag: str) -> None:
    page.wait_for_function(
        "(etag) => document.querySelector('#stage').dataset.etag !== etag",
        arg=etag,
        timeout=LIVE_MS,
    )


@pytest.mark.parametrize("viewport", [PROJECTOR, {"width": 1280, "height": 720}])
def test_pause_after_time_ran_out_keeps_time_up_inside_the_band(
    live_server, new_context, organizer, viewport
):
    event = factories.start_rounds(
        factories.seated_event(owner=organizer, players=8, tables=2, rounds_planned=12)
    )
    event.end_clock_now()
    event.save_and_bump(["clock_ends_at", "clock_paused_remaining"])
    page = open_projector(live_server, new_context, event, viewport=viewport)
    expect(page.get_by_role("alert")).to_have_text(TIME_UP)
    etag = page.locator("#stage").get_attribute("data-etag")

    event.pause_clock()  # the organizer pressed Pause after time ran out
    event.save_and_bump(["clock_paused_remaining"])
    stage_changes(page, etag)

    expect(page.get_by_role("alert")).to_have_text(TIME_UP)
    expect(page.get_by_text("Paused")).to_have_count(0)
    expect(page.locator(".clock")).to_have_text("0:00")
    assert page.evaluate(BAND_SPILLS) == []


def set_visibility(page, state: str) -> None:
    """What the browser does when the projector's tab is hidden or shown again."""
    page.evaluate(
        """(state) => {
            Object.defineProperty(document, "visibilityState", {value: state, configurable: true});
            document.dispatchEvent(new Event("visibilitychange"));
        }""",
        state,
    )


def test_polling_pauses_while_the_tab_is_hidden(live_server, new_context, organizer):
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=8, tables=2))
    page = new_context(viewport=PROJECTOR).new_page()
    page.clock.install()  # time runs as usual, and the test can jump ahead
    page.goto(live_server.url + reverse("projector:screen", args=[event.projector_token]))
    with page.expect_request(lambda request: request.headers.get("hx-request") == "true"):
        pass  # a visible projector polls

    set_visibility(page, "hidden")
    polls = count_htmx_requests(page)
    page.clock.run_for(4_500)  # two polling intervals and more, at once
    assert polls() == 0

    winner = factories.seated_names(event, 1)[0]
    factories.report(event, 1, winner)
    set_visibility(page, "visible")
    expect(games_of(page, winner)).to_have_text("1", timeout=1_500)


def test_the_reveal_shows_the_rules_and_hiding_them_takes_them_off_again(
    live_server, new_context, organizer
):
    event = factories.seated_event(owner=organizer, players=8, tables=2, rounds_planned=1)
    event = factories.close_current_round(factories.start_rounds(event), organizer)
    event = start_debrief(event=event)
    page = open_projector(live_server, new_context, event)
    expect(page.get_by_role("heading", name="Debrief")).to_be_visible()
    shows_no_variant(page)

    reveal_rules(event=event)
    expect(page.get_by_role("heading", name="Each table’s rules")).to_be_visible(timeout=LIVE_MS)
    expect(page.locator(".rule-card")).to_have_count(2)

    reveal_rules(event=event, revealed=False)
    expect(page.get_by_role("heading", name="Debrief")).to_be_visible(timeout=LIVE_MS)
    shows_no_variant(page)


def test_a_board_too_big_for_one_screen_pages_through_by_itself(
    live_server, new_context, organizer
):
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=150, tables=38))
    page = open_projector(live_server, new_context, event)

    pages = page.locator(".board-page")
    expect(pages).to_have_count(2)
    expect(page.locator(".board-page:visible")).to_have_count(1)
    expect(page.locator("[data-pager-number]")).to_have_text("1")
    first_label = page.locator("[data-pager-label]").inner_text()

    expect(page.locator("[data-pager-number]")).to_have_text("2", timeout=9_000)
    expect(pages.nth(1)).to_be_visible()
    assert page.locator("[data-pager-label]").inner_text() != first_label


def test_the_full_screen_button_fills_the_display_then_steps_aside(
    live_server, new_context, organizer
):
    event = factories.seated_event(owner=organizer, players=8, tables=2)
    page = open_projector(live_server, new_context, event)
    button = page.get_by_role("button", name="Full screen")

    button.click()

    page.wait_for_function("document.fullscreenElement !== null")
    expect(button).to_be_hidden()


def test_the_phases_follow_one_another_on_the_same_page(live_server, new_context, organizer):
    event = factories.seated_event(owner=organizer, players=8, tables=2)
    page = open_projector(live_server, new_context, event)
    expect(page.get_by_role("heading", name=event.name)).to_be_visible()

    event = advance_phase(event=event)
    expect(
        page.get_by_role("heading", name="Study the rules and play practice games")
    ).to_be_visible(timeout=LIVE_MS)
    expect(page.get_by_text("Talking is allowed")).to_be_visible()
    event = advance_phase(event=event)
    expect(
        page.get_by_role("heading", name="Practice at your home table, in silence")
    ).to_be_visible(timeout=LIVE_MS)
    silence = page.get_by_role("note", name="The silence rule")
    for rule in SILENCE_RULES:
        expect(silence.get_by_text(rule, exact=True)).to_be_visible()
    shows_no_variant(page)
    assert page.evaluate("window.__sameDocument") is True


SILENCE_RULES = (
    "No talking",
    "No written words",
    "No sign language",
    "Gestures are fine",
    "Drawings are fine",
)


def test_the_round_screen_reminds_the_room_of_the_silence_rule(live_server, new_context, organizer):
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=8, tables=2))
    page = open_projector(live_server, new_context, event)

    silence = page.locator(".band").get_by_role("note", name="The silence rule")
    for rule in SILENCE_RULES:
        expect(silence.get_by_text(rule, exact=True)).to_be_visible()
    assert page.evaluate(BAND_SPILLS) == []


def test_the_projectors_links_show_where_the_keyboard_is(live_server, new_context, organizer):
    event = factories.seated_event(owner=organizer, players=8, tables=2)
    page = open_projector(live_server, new_context, event)

    page.keyboard.press("Tab")

    ladder = page.get_by_role("link", name="Ladder")
    expect(ladder).to_be_focused()
    expect(ladder).to_have_css("outline-style", "solid")
    assert float(ladder.evaluate("(el) => parseFloat(getComputedStyle(el).outlineWidth)")) >= 3


# --- every name in full ---------------------------------------------------------------------

HANNAH_STAYS = "Hannah Abara"
HANNAH_GOES_DOWN = "Hannah Zeller"
LONGEST = "Oluwaseun Van der Berg-Castellanos Okafor"[:40]  # as long as a name may be
SHARED_TABLE = 8


def whole(name: str) -> re.Pattern:
    return re.compile(rf"^{re.escape(name)}$")


def sixty_players_after_a_round(organizer):
    """15 tables of 4; at table 8 two Hannahs: one stays, one goes down."""
    event = factories.seated_event(owner=organizer, players=room_names(60), tables=15)
    hannahs = factories.seated_players(event, SHARED_TABLE)[:2]
    for player, name in zip(hannahs, (HANNAH_STAYS, HANNAH_GOES_DOWN), strict=True):
        player.name = name
        player.save(update_fields=["name"])
    longest = factories.seated_players(event, 3)[0]
    longest.name = LONGEST
    longest.save(update_fields=["name"])
    event = factories.start_rounds(event)
    others = [name for name in factories.seated_names(event, SHARED_TABLE) if "Hannah" not in name]
    for winner in (others[0], others[0], HANNAH_STAYS, others[1]):
        factories.report(event, SHARED_TABLE, winner)
    return factories.close_current_round(event, organizer)


# Every name on the page showing: not cut at its right edge, not spilling out of its row,
# and no row below the board.
NAMES_CUT = """() => {
  const page = document.querySelector('.board-page.is-current') ||
               document.querySelector('.board-page');
  const board = document.querySelector('.board').getBoundingClientRect();
  return [...page.querySelectorAll('.row')].flatMap((row) => {
    const name = row.querySelector('.name');
    const box = row.getBoundingClientRect();
    const text = name.getBoundingClientRect();
    const cut = name.scrollWidth > name.clientWidth || text.top < box.top - 1
        || text.bottom > box.bottom + 1 || text.right > box.right + 1
        || box.bottom > board.bottom + 1;
    return cut ? [name.textContent] : [];
  });
}"""


def every_page_shows_whole_names(page) -> int:
    """Checks each page as the projector turns to it; returns how many there are."""
    pages = page.locator(".board-page").count()
    for number in range(1, pages + 1):
        if pages > 1:
            # A turn every 8 s; a busy machine may be late.
            expect(page.locator("[data-pager-number]")).to_have_text(str(number), timeout=17_000)
        assert page.evaluate(NAMES_CUT) == [], f"page {number} of {pages}"
    return pages


def test_sixty_players_find_their_full_names_on_the_moves_screen(
    live_server, new_context, organizer
):
    event = sixty_players_after_a_round(organizer)
    page = open_projector(live_server, new_context, event)
    expect(page.get_by_role("heading", name="Moves for round 2")).to_be_visible()
    pages = page.locator(".board-page").count()

    for name, goes_to in ((HANNAH_STAYS, SHARED_TABLE), (HANNAH_GOES_DOWN, SHARED_TABLE - 1)):
        # The pages turn by themselves: wait for the one that shows this name.
        shown = page.locator(".board-page:visible .name").filter(has_text=whole(name))
        expect(shown).to_be_visible(timeout=pages * 8_000 + 2_000)
        assert shown.evaluate("(el) => el.scrollWidth <= el.clientWidth")
        row = shown.locator("xpath=ancestor::li[1]")
        expect(row.locator(".dest")).to_have_text(re.compile(rf"\b{goes_to}$"))
        expect(row.locator(".mark")).to_be_visible()
    expect(page.locator("[data-pager-number]")).to_be_visible()


@pytest.mark.parametrize("viewport", [PROJECTOR, {"width": 1280, "height": 720}])
@pytest.mark.parametrize("font", ["", "DejaVu Sans"])
def test_no_name_is_ever_cut_whatever_the_screen_or_the_font(
    live_server, new_context, organizer, viewport, font
):
    """The projector asks for a condensed face; a laptop may have only a plain one."""
    event = sixty_players_after_a_round(organizer)
    page = open_projector(live_server, new_context, event, viewport=viewport)
    if font:  # a face wider than the server plans for: the letters get smaller instead
        # Through the CSSOM: the page's Content-Security-Policy refuses an added <style>.
        page.evaluate("(font) => document.body.style.setProperty('--names', `\"${font}\"`)", font)
        page.evaluate("window.dispatchEvent(new Event('resize'))")
        family = page.locator(".name").first.evaluate("(el) => getComputedStyle(el).fontFamily")
        assert family == f'"{font}"'

    assert every_page_shows_whole_names(page) >= 1
    expect(page.locator(".name").filter(has_text=whole(LONGEST))).to_have_count(1)


def test_the_round_screen_shows_a_forty_letter_name_whole(live_server, new_context, organizer):
    event = factories.seated_event(owner=organizer, players=room_names(72), tables=12)
    player = factories.seated_players(event, 5)[0]
    player.name = LONGEST
    player.save(update_fields=["name"])
    page = open_projector(live_server, new_context, factories.start_rounds(event))

    assert every_page_shows_whole_names(page) >= 1
    expect(page.locator(".name").filter(has_text=whole(LONGEST))).to_have_count(1)


def test_without_javascript_every_page_shows_and_the_screen_refreshes_itself(
    live_server, new_context, organizer
):
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=150, tables=38))
    page = new_context(viewport=PROJECTOR, java_script_enabled=False).new_page()
    page.goto(live_server.url + reverse("projector:screen", args=[event.projector_token]))

    expect(page.locator(".board-page:visible")).to_have_count(2)
    expect(page.locator(".page-caption").first).to_be_visible()
    expect(page.locator("li.row:visible")).to_have_count(150)
    assert page.locator("noscript").first.inner_html().startswith('<meta http-equiv="refresh"')
