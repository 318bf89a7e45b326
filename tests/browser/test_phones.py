"""Phones at the tables, in a real browser: two phones at table 1 and one at table 2, each
its own browser context, while the test thread drives the event through its phases.

The second test walks every phone screen at 390 px and checks what a player holding it
would notice (touch targets, text size, nothing wider than the screen); so does the third
for the printed kit. With `SCREENSHOTS=1` they also take pictures, into
./screenshots/phone and ./screenshots/kit.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import Locator, Page, expect

from tables.models import Game, GameReport, GameStatus, ReportState, Table
from tables.rules.rule_sheets import rule_sheet
from tests import factories
from tests.browser.conftest import (
    LAPTOP,
    PHONE,
    SCREENSHOTS,
    pictures,
    requests_answered,
    sign_in,
    snap,
)
from tournament.models import Seat
from tournament.writes.rounds import advance_phase, close_round, undo_close_round
from tournament.writes.signin import ensure_organizer

pytestmark = pytest.mark.django_db(transaction=True)

POLL_WAIT = 12_000  # ms: phones poll every 2 s; a shared 2-core machine can be slow
MIN_TARGET_PX = 44
MIN_TEXT_PX = 16
TIME_UP = "Time is up: finish the trick in play, then report."


def trumps(table: Table) -> str:
    """The sentence of a table's rule sheet that names its trump suit: unique per variant."""
    return next(s.text for s in rule_sheet(table.variant).sections if s.heading == "Trumps")


def open_phone(new_context, live_server, table: Table) -> Page:
    page = new_context(viewport=PHONE, has_touch=True, is_mobile=True).new_page()
    page.goto(live_server.url + reverse("phone:table", args=[table.token]))
    return page


def stop_polling(*pages: Page) -> None:
    """Leave the live pages before the test database is emptied: a poll still running in
    the live server would hold a table lock and make the teardown fail."""
    for page in pages:
        page.goto("about:blank")
    requests_answered()


def shown(page: Page) -> Locator:
    """What the page shows, without the status region that repeats its notices aloud."""
    return page.locator("#live")


def winner_button(phone: Page, name: str):
    return phone.locator("form.report").get_by_role("button", name=re.compile(f"^{name}"))


# The one browser round `make test-postgres` runs: phones reporting at once, a report
# racing the close, the close and its undo, through the live server's real transactions.
@pytest.mark.postgres
def test_two_phones_at_one_table_and_one_at_another(live_server, new_context):
    organizer, _ = ensure_organizer()
    event = factories.seated_event(owner=organizer, players=8, tables=2, rounds_planned=2)
    one, two = factories.table(event, 1), factories.table(event, 2)
    at_one, at_two = factories.seated_names(event, 1), factories.seated_names(event, 2)
    event = advance_phase(event=event)  # study

    phone_a = open_phone(new_context, live_server, one)
    phone_b = open_phone(new_context, live_server, one)
    phone_c = open_phone(new_context, live_server, two)

    # Study: each phone shows its own table's rules, and only those.
    expect(shown(phone_a).get_by_text(trumps(one))).to_be_visible()
    expect(shown(phone_b).get_by_text(trumps(one))).to_be_visible()
    expect(shown(phone_c).get_by_text(trumps(two))).to_be_visible()
    assert trumps(two) not in phone_a.content()
    assert trumps(one) not in phone_c.content()

    # Study ends: the rules disappear from every phone without a reload.
    event = advance_phase(event=event)
    for phone in (phone_a, phone_b, phone_c):
        expect(shown(phone).get_by_text("Practice: games are not scored.")).to_be_visible(
            timeout=POLL_WAIT
        )
        expect(phone.locator(".rules")).to_have_count(0)
    assert trumps(one) not in phone_a.content()
    assert trumps(two) not in phone_c.content()

    # Round 1: phone A reports game 1, phone B is asked to confirm it and does.
    event = advance_phase(event=event)
    for phone in (phone_a, phone_b, phone_c):
        expect(shown(phone).get_by_text("Game 1: who won?")).to_be_visible(timeout=POLL_WAIT)
    winner_button(phone_a, at_one[0]).click()
    expect(shown(phone_a).get_by_text(f"Game 1 recorded: {at_one[0]} won.")).to_be_visible()
    expect(shown(phone_a).get_by_text("Game 2: who won?")).to_be_visible()
    expect(shown(phone_b).get_by_text(f"Another phone says {at_one[0]} won game 1.")).to_be_visible(
        timeout=POLL_WAIT
    )
    phone_b.get_by_role("button", name="Yes, confirm game 1").click()
    expect(shown(phone_b).get_by_text(f"Game 1 confirmed: {at_one[0]} won.")).to_be_visible()
    assert Game.objects.get(table=one, number=1).status == GameStatus.CONFIRMED

    # A double tap stores one game.
    winner_button(phone_a, at_one[1]).dblclick()
    expect(shown(phone_a).get_by_text(f"Game 2 recorded: {at_one[1]} won.")).to_be_visible()
    expect(shown(phone_a).get_by_text("Game 3: who won?")).to_be_visible()
    assert Game.objects.filter(table=one, number=2).count() == 1
    assert GameReport.objects.filter(table=one, game_number=2).count() == 1

    # A retry over bad Wi-Fi (the first answer lost on the way back) stores one game too.
    def answer_lost_then_retried(route):
        route.fetch()
        route.fulfill(response=route.fetch())

    phone_a.route(re.compile(r"/report/$"), answer_lost_then_retried)
    winner_button(phone_a, at_one[2]).click()
    expect(shown(phone_a).get_by_text(f"Game 3 recorded: {at_one[2]} won.")).to_be_visible()
    phone_a.unroute(re.compile(r"/report/$"))
    assert GameReport.objects.filter(table=one, game_number=3).count() == 1
    assert Game.objects.filter(table=one).count() == 3

    # Phone B disagrees about game 4: both reports are kept, the game is disputed.
    expect(shown(phone_a).get_by_text("Game 4: who won?")).to_be_visible()
    winner_button(phone_a, at_one[3]).click()
    expect(shown(phone_a).get_by_text(f"Game 4 recorded: {at_one[3]} won.")).to_be_visible()
    expect(shown(phone_b).get_by_text(f"Another phone says {at_one[3]} won game 4.")).to_be_visible(
        timeout=POLL_WAIT
    )
    phone_b.get_by_role("link", name="No, someone else won game 4").click()
    expect(shown(phone_b).get_by_text("Game 4: who won?")).to_be_visible()
    winner_button(phone_b, at_one[0]).click()
    expect(
        shown(phone_b).get_by_text(
            "Game 4: another phone named someone else — the organizer will settle it."
        )
    ).to_be_visible()
    expect(phone_a.locator(".game-disputed")).to_have_count(1, timeout=POLL_WAIT)

    # The organizer's console shows the dispute.
    console = new_context(viewport=LAPTOP).new_page()
    sign_in(console, live_server, organizer)
    console.goto(live_server.url + reverse("organizer:table", args=[event.pk, 1]))
    disputed_row = console.locator("tr.status-disputed")
    expect(disputed_row).to_have_count(1)
    expect(disputed_row).to_contain_text("disputed: counts for nobody")
    expect(disputed_row).to_contain_text(f"{at_one[3]}")
    expect(disputed_row).to_contain_text(f"{at_one[0]}")

    # Table 2's phone lost its connection while the round was closed; its tap arrives
    # late: refused with a clear message, and kept for the organizer.
    expect(winner_button(phone_c, at_two[0])).to_be_visible()
    before = winner_button(phone_c, at_two[0]).bounding_box()
    phone_c.route(re.compile(r"/live/"), lambda route: route.abort())
    expect(phone_c.locator("#offline")).to_be_visible(timeout=POLL_WAIT)
    # The notice lies over the page's top: nothing moves under a finger about to tap.
    assert winner_button(phone_c, at_two[0]).bounding_box() == before
    close_round(round_=event.current_round, by=organizer)
    winner_button(phone_c, at_two[0]).click()
    expect(
        shown(phone_c).get_by_text("This round is closed. Your report was kept for the organizer.")
    ).to_be_visible()
    late = GameReport.objects.get(table=two)
    assert late.state == ReportState.LATE
    assert late.winner.name == at_two[0]
    phone_c.unroute(re.compile(r"/live/"))
    expect(phone_c.locator("#offline")).to_be_hidden(timeout=POLL_WAIT)

    # Between rounds every phone shows where its players go next, and why.
    next_tables = factories.seats_of(event, 2)
    for phone, names in ((phone_a, at_one), (phone_b, at_one), (phone_c, at_two)):
        expect(shown(phone).get_by_text("Next round: where to go")).to_be_visible(timeout=POLL_WAIT)
        for name in names:
            row = phone.locator(".move", has_text=name)
            expect(row.locator(".to .visually-hidden")).to_have_text(f"Table {next_tables[name]}")
            expect(row.locator(".to [aria-hidden]")).to_have_text(str(next_tables[name]))
            expect(row.locator(".why")).not_to_be_empty()
    games_won = {
        name: count
        for name, count in Seat.objects.filter(round__event=event, round__number=2).values_list(
            "player__name", "games_won_before"
        )
    }
    assert games_won[at_one[0]] == 1  # game 1 counted once, game 4 disputed

    # The organizer undoes the close: the phones, which kept polling while the round was
    # closed, ask about the next game again, never about game 1; time is still up.
    undo_close_round(event=event)
    for phone in (phone_a, phone_b):
        expect(shown(phone).get_by_text("Game 5: who won?")).to_be_visible(timeout=POLL_WAIT)
        expect(shown(phone).get_by_text("This game was already reported.")).to_have_count(0)
        expect(shown(phone).get_by_text(TIME_UP)).to_be_visible()
    stop_polling(phone_a, phone_b, phone_c, console)


def test_a_double_tap_a_moment_apart_reports_one_game(live_server, new_context):
    """The second tap lands on the next game's form, which appeared under the finger."""
    organizer, _ = ensure_organizer()
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=8, tables=2))
    names = factories.seated_names(event, 1)
    phone = open_phone(new_context, live_server, factories.table(event, 1))
    posts = []
    phone.on("request", lambda request: request.method == "POST" and posts.append(request))

    winner_button(phone, names[0]).click()
    expect(shown(phone).get_by_text(f"Game 1 recorded: {names[0]} won.")).to_be_visible()
    expect(shown(phone).get_by_text("Game 2: who won?")).to_be_visible()
    # Locked while nothing is on its way: the page holds the buttons, not a request.
    expect(winner_button(phone, names[0])).to_be_disabled()
    # A report leaves by its form's submit event (phone.js sends it): count those.
    phone.evaluate("window.submits = 0; addEventListener('submit', () => window.submits++, true)")
    winner_button(phone, names[0]).click(force=True)  # the second tap, ~300 ms later
    assert phone.evaluate("window.submits") == 0
    assert len(posts) == 1
    expect(shown(phone).get_by_text(f"Game 1 recorded: {names[0]} won.")).to_be_visible()
    assert Game.objects.count() == 1

    # A phone whose lock did not hold (an old page, a slow phone): it asks before counting.
    phone.evaluate("document.querySelector('form.report fieldset').disabled = false")
    winner_button(phone, names[0]).click()
    expect(phone.locator("#retap-ask")).to_contain_text(f"Another game for {names[0]}?")
    phone.get_by_role("button", name="No, it was the same game").click()
    assert Game.objects.count() == 1

    # Another name for the next game is taken at once: the lock lasts about 2 seconds.
    expect(winner_button(phone, names[1])).to_be_enabled(timeout=4_000)
    winner_button(phone, names[1]).click()
    expect(shown(phone).get_by_text(f"Game 2 recorded: {names[1]} won.")).to_be_visible()
    assert Game.objects.count() == 2
    stop_polling(phone)


def test_a_name_tapped_in_the_list_right_after_another_phone_reported_it_confirms_that_game(
    live_server, new_context
):
    """Phone B is asked to confirm game 1 and taps the winner in the big list below instead:
    one game, confirmed, not a game 2 that nobody played."""
    organizer, _ = ensure_organizer()
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=8, tables=2))
    jamal = factories.seated_names(event, 1)[0]
    one = factories.table(event, 1)
    phone_a = open_phone(new_context, live_server, one)
    phone_b = open_phone(new_context, live_server, one)
    expect(shown(phone_b).get_by_text("Game 1: who won?")).to_be_visible()

    winner_button(phone_a, jamal).click()
    expect(shown(phone_a).get_by_text(f"Game 1 recorded: {jamal} won.")).to_be_visible()
    expect(shown(phone_b).get_by_text(f"Another phone says {jamal} won game 1.")).to_be_visible(
        timeout=POLL_WAIT
    )
    expect(shown(phone_b).get_by_text("Game 2: who won?")).to_be_visible()
    winner_button(phone_b, jamal).click()

    confirmed = f"Game 1 confirmed: {jamal} won (another phone reported it a moment ago)."
    expect(shown(phone_b).get_by_text(confirmed)).to_be_visible()
    expect(phone_b.locator("#announce")).to_have_text(confirmed)
    expect(shown(phone_b).get_by_text("Game 2: who won?")).to_be_visible()
    expect(phone_b.locator(".confirm-box")).to_have_count(0)
    assert Game.objects.get(table=one).status == GameStatus.CONFIRMED
    assert GameReport.objects.filter(table=one, game_number=1).count() == 2
    expect(phone_a.locator(".game-confirmed")).to_have_count(1, timeout=POLL_WAIT)
    assert Game.objects.filter(table=one).count() == 1
    stop_polling(phone_a, phone_b)


def test_a_keyboard_report_keeps_the_focus_on_the_page_and_reads_the_result_out(
    live_server, new_context
):
    """Each report and each poll replaces the live part: the focus must not fall to <body>
    (the top of the page), and the result must reach the status region outside it."""
    organizer, _ = ensure_organizer()
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=8, tables=2))
    names = factories.seated_names(event, 1)
    one = factories.table(event, 1)
    phone = new_context(viewport=PHONE).new_page()
    phone.goto(live_server.url + reverse("phone:table", args=[one.token]))
    expect(phone.locator("h1")).to_have_count(1)
    expect(phone.locator("h1")).to_have_text("Table 1")

    winner_button(phone, names[0]).focus()
    phone.keyboard.press("Enter")

    recorded = f"Game 1 recorded: {names[0]} won."
    expect(phone.locator("#announce")).to_have_text(recorded)
    assert phone.evaluate("document.activeElement !== document.body")
    assert phone.evaluate("document.activeElement.textContent.trim()") == recorded
    expect(phone.locator("#live [data-notice]")).to_be_focused()
    # The tally is shown, but the button is named by the name alone.
    tallied = phone.get_by_role("button", name=names[0], exact=True)
    expect(tallied).to_have_count(1)
    expect(tallied).to_have_accessible_description("1 game won this round")

    # Another phone reports while this one is on a name: the poll that brings the change
    # (the same button now answers game 3) says so and moves the focus to the choice to
    # confirm or dispute game 2.
    other = winner_button(phone, names[1])
    expect(other).to_be_enabled(timeout=4_000)
    other.focus()
    factories.report(event, 1, names[2])
    says = f"Another phone says {names[2]} won game 2."
    expect(shown(phone).get_by_text(says)).to_be_visible(timeout=POLL_WAIT)
    expect(phone.locator(".confirm-box")).to_be_focused()
    expect(phone.locator("#announce")).to_have_text(says)

    # A poll that changes nothing the buttons mean leaves the focus where it is.
    expect(other).to_be_enabled(timeout=4_000)
    other.focus()
    factories.report(event, 1, names[2], game_number=2)  # a third phone confirms game 2
    expect(phone.locator(".game-confirmed")).to_have_count(1, timeout=POLL_WAIT)
    expect(other).to_be_focused()
    stop_polling(phone)


def test_time_up_shows_on_the_phones_the_moment_the_clock_reaches_zero(live_server, new_context):
    organizer, _ = ensure_organizer()
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=8, tables=2))
    event.clock_ends_at = timezone.now() + timedelta(seconds=10)
    event.save_and_bump(["clock_ends_at"])
    table = factories.table(event, 1)
    name = factories.seated_names(event, 1)[0]
    phone = open_phone(new_context, live_server, table)
    player = new_context(viewport=PHONE, has_touch=True, is_mobile=True).new_page()
    player.goto(live_server.url + reverse("phone:player_home", args=[event.players_token]))
    player.get_by_role("button", name=name).click()

    expect(shown(phone).get_by_text(TIME_UP)).to_be_hidden()
    expect(shown(player).get_by_text(f"Play at table {table.number}.")).to_be_visible()

    # The countdown reaches 0:00 in the browser; no request is needed to say so.
    for page in (phone, player):
        expect(shown(page).get_by_text(TIME_UP)).to_be_visible(timeout=15_000)
        expect(page.locator("#announce")).to_have_text(TIME_UP)  # said aloud, not only shown
    expect(shown(player).get_by_text(f"Play at table {table.number}.")).to_be_hidden()
    expect(shown(phone).get_by_text("Game 1: who won?")).to_be_visible()
    stop_polling(phone, player)


def test_a_phone_without_javascript_reports_with_plain_forms(live_server, new_context):
    organizer, _ = ensure_organizer()
    event = factories.start_rounds(
        factories.seated_event(owner=organizer, players=8, tables=2, rounds_planned=2)
    )
    names = factories.seated_names(event, 1)
    phone = new_context(viewport=PHONE, java_script_enabled=False).new_page()
    phone.goto(live_server.url + reverse("phone:table", args=[factories.table(event, 1).token]))

    winner_button(phone, names[1]).click()
    expect(shown(phone).get_by_text(f"Game 1 recorded: {names[1]} won.")).to_be_visible()
    phone.get_by_role("link", name="Time up mid-game? Enter the tricks").click()
    phone.get_by_label(names[2]).fill("2")
    phone.get_by_label(names[3]).fill("2")
    phone.get_by_role("button", name="Save this game").click()

    # Two tricks each: the tie goes to the name first in the alphabet.
    expect(shown(phone).get_by_text(f"Game 2 recorded: {names[2]} won.")).to_be_visible()
    assert Game.objects.get(table__number=1, number=2).finished is False


# --- screenshots and what a player would notice -------------------------------------------


@pytest.fixture
def shots(tmp_path) -> Callable[[str], Path]:
    def folder(area: str) -> Path:
        return pictures(area, tmp_path)

    return folder


def check_phone_screen(page: Page, what: str) -> None:
    """Nothing wider than the phone; every tap target at least 44 px; text readable."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{what}: the page is {width}px wide"
    small = page.evaluate(
        """(min) => [...document.querySelectorAll('button, .button, input, select, main a')]
             .filter(el => el.offsetParent !== null)
             .map(el => [el.textContent.trim() || el.name, el.getBoundingClientRect()])
             .filter(([, r]) => r.height < min || r.width < min)
             .map(([name, r]) => `${name} ${Math.round(r.width)}x${Math.round(r.height)}`)""",
        MIN_TARGET_PX,
    )
    assert not small, f"{what}: targets under {MIN_TARGET_PX}px: {small}"
    tiny = page.evaluate(
        """(min) => [...document.querySelectorAll(
             'main p, main li, main button, main label, .table-label')]
             .filter(el => el.offsetParent !== null && el.textContent.trim())
             .filter(el => parseFloat(getComputedStyle(el).fontSize) < min)
             .map(el => el.textContent.trim().slice(0, 30))""",
        MIN_TEXT_PX,
    )
    assert not tiny, f"{what}: text under {MIN_TEXT_PX}px: {tiny}"


PLAYERS = [
    "Anne-Charlotte Vandenberghe",
    "Bartholomew Okonkwo",
    "Chloé Dubois",
    "Dmitri Ivanova",
    "Émilie García",
    "Fatima Hakimi",
    "Gunnar Lindqvist",
    "Hiroshi Tanaka",
    "Ingrid Johansson",
    "Jean-Baptiste Nakamura",
]


def test_every_phone_screen_at_390px(live_server, new_context, shots):
    folder = shots("phone")
    organizer, _ = ensure_organizer()
    event = factories.seated_event(owner=organizer, players=PLAYERS, tables=2, rounds_planned=2)
    table = factories.table(event, 1)
    phone = new_context(viewport=PHONE, has_touch=True, is_mobile=True).new_page()
    player = new_context(viewport=PHONE, has_touch=True, is_mobile=True).new_page()
    table_url = live_server.url + reverse("phone:table", args=[table.token])
    player_url = live_server.url + reverse("phone:player_home", args=[event.players_token])

    def look(page: Page, name: str) -> None:
        check_phone_screen(page, name)
        snap(page, folder / f"{name}.png")  # what the phone shows at first
        snap(page, folder / f"{name}-full.png", full_page=True)

    player.goto(player_url)
    look(player, "player-0-pick")
    player.get_by_role("button", name=PLAYERS[0]).click()

    steps = ["setup", "study", "practice", "round", "round-games", "between", "round-2",
             "final", "debrief"]  # fmt: skip
    for number, step in enumerate(steps, start=1):
        if step == "round-games":
            for winner in factories.seated_names(event, 1)[:3]:
                factories.report(event, 1, winner)
            factories.report(event, 1, factories.seated_names(event, 1)[0], game_number=3)
            factories.report(event, 1, factories.seated_names(event, 1)[4])  # to confirm
        elif step == "final":
            event = factories.close_current_round(event, organizer)
        elif step != "setup":
            event = factories.play_until(
                event, {"round-2": "round", "debrief": "debrief"}.get(step, step), by=organizer
            )
        phone.goto(table_url)
        look(phone, f"table-{number}-{step}")
        player.goto(player_url)
        look(player, f"player-{number}-{step}")
        if step == "round":
            phone.goto(live_server.url + reverse("phone:tricks", args=[table.token]))
            look(phone, "table-4-round-tricks")

    phone.goto(live_server.url + reverse("phone:table", args=["a-rotated-token"]))
    look(phone, "table-invalid-link")
    stop_polling(phone, player)


def test_the_printed_kit_on_a4_and_letter(live_server, new_context, shots):
    folder = shots("kit")
    organizer, _ = ensure_organizer()
    # Five tables: one plays trump-anytime, whose rules are the longest to fit on a page.
    players = PLAYERS + factories.names(12)
    event = factories.seated_event(owner=organizer, players=players, tables=5)
    assert event.tables.filter(trump_anytime=True).exists()
    pages = 3 * 5  # a tent card, a rule sheet and the players' guide per table
    page = new_context(viewport=LAPTOP).new_page()
    sign_in(page, live_server, organizer)
    kit = live_server.url + reverse("kit:event_kit", args=[event.pk])

    page.goto(kit)
    snap(page, folder / "kit-screen.png")
    expect(page.get_by_role("button", name=re.compile("Print the whole kit"))).to_be_visible()

    for paper, (width_mm, height_mm) in {"a4": (210, 297), "letter": (215.9, 279.4)}.items():
        # A fresh page at the paper's size (96 px per inch), as the printer lays it out.
        px = {"width": round(width_mm / 25.4 * 96), "height": round(height_mm / 25.4 * 96)}
        printed = page.context.new_page()  # signed in, like the organizer's browser
        printed.set_viewport_size(px)
        printed.goto(f"{kit}?paper={paper}")
        printed.emulate_media(media="print")
        sheets = printed.locator(".sheet")
        assert sheets.count() == pages
        for index in range(sheets.count()):
            snap(sheets.nth(index), folder / f"kit-{paper}-page-{index + 1}.png")
            overflow = sheets.nth(index).evaluate(
                "el => [...el.querySelectorAll('*')].some(c => {"
                " const r = c.getBoundingClientRect(), s = el.getBoundingClientRect();"
                " return r.bottom > s.bottom + 1 || r.right > s.right + 1; })"
            )
            assert not overflow, f"{paper} page {index + 1}: something runs off the page"
        pdf = printed.pdf(prefer_css_page_size=True, print_background=True)
        if SCREENSHOTS:
            (folder / f"kit-{paper}.pdf").write_bytes(pdf)
        assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == pages
        box = re.search(rb"/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", pdf)
        points = (float(box[1]), float(box[2]))
        assert points == pytest.approx((width_mm / 25.4 * 72, height_mm / 25.4 * 72), abs=2)
