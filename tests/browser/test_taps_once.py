"""A tap counts once, on what the player's screen showed, whatever the venue's Wi-Fi does
to its answer (static/js/phone.js's outbox, tables.writes.reporting's quick retap).

Each test plays one fault at a phone-sized page, with Playwright's routes standing in for
the network: an answer lost after the server stored the report (a 502 from a proxy), an
answer held six seconds, a reload while the answer is on its way, a phone offline for two
games, a tab closed while a report waits. In each the test counts the games stored: none
lost, none doubled, none overwritten; and the phone says what is on its way, what waits
and what went. With SCREENSHOTS=1 they take pictures at 390 px into ./screenshots/taps.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import Page, Route, expect

from tables.models import Game, GameReport
from tests import factories
from tests.browser.conftest import PHONE, pictures, snap
from tests.browser.test_phones import POLL_WAIT, open_phone, shown, stop_polling, winner_button
from tournament.writes.signin import ensure_organizer

pytestmark = pytest.mark.django_db(transaction=True)

REPORT = re.compile(r"/report/$")
RETRIED = 30_000  # ms: a failed send goes again after 2 s, then 4 s, 8 s...


def playing_table():
    """A round being played at two tables of four; the names seated at table 1."""
    organizer, _ = ensure_organizer()
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=8, tables=2))
    return event, factories.table(event, 1), factories.seated_names(event, 1)


def games_at(table) -> dict[int, str]:
    # "" for a game with no winner (a dispute), which none of these tests expects.
    return {
        game.number: game.winner.name if game.winner else ""
        for game in Game.objects.filter(table=table)
    }


def outbox(phone: Page):
    return phone.locator("#outbox .outbox-list")


def asked(phone: Page):
    return phone.locator("#retap-ask")


def until(page: Page, condition, timeout_ms: int = 10_000) -> None:
    """Let Playwright's loop run (route handlers included) until ``condition()`` holds."""
    for _ in range(timeout_ms // 20):
        if condition():
            return
        page.wait_for_timeout(20)
    raise AssertionError(f"still not true after {timeout_ms} ms: {condition}")


def hold_answers(phone: Page) -> list:
    """From now on the server stores each report, and its answer is held back: the list
    gets (route, answer), for the test to let the answer through, or never."""
    held: list = []
    phone.route(REPORT, lambda route: held.append((route, route.fetch())))
    return held


def nothing_waits(phone: Page) -> None:
    assert phone.evaluate("JSON.parse(localStorage.getItem('ft-outbox') || '[]')") == []


def test_an_answer_lost_after_the_report_was_stored_then_a_retap(
    live_server, new_context, tmp_path
):
    folder = pictures("taps", tmp_path)
    event, table, names = playing_table()
    phone = open_phone(new_context, live_server, table)
    expect(shown(phone).get_by_text("Game 1: who won?")).to_be_visible()
    answers_lost = []

    def stored_but_answer_lost(route: Route) -> None:
        route.fetch()  # the server stores it...
        answers_lost.append(route.request.url)
        route.fulfill(status=502, content_type="text/html", body="<h1>502 Bad Gateway</h1>")
        phone.unroute(REPORT)  # ...once; the phone's own retry then gets through

    phone.route(REPORT, stored_but_answer_lost)
    winner_button(phone, names[0]).click()
    expect(outbox(phone).get_by_text(f"Waiting to send: {names[0]} won game 1")).to_be_visible()
    # The screen moved on: the tap was taken, and the next game is the question.
    expect(shown(phone).get_by_text("Game 2: who won?")).to_be_visible()
    snap(phone, folder / "taps-1-waiting-after-502.png")

    # The player, unsure, taps the same name again: asked, not counted.
    winner_button(phone, names[0]).click()
    expect(asked(phone)).to_contain_text(f"Another game for {names[0]}?")
    expect(asked(phone)).to_be_focused()
    snap(phone, folder / "taps-2-another-game.png")
    # The page stays live while it asks: another phone's report of game 2 shows, and the
    # question keeps the focus.
    factories.report(event, 1, names[1], game_number=2, phone="another-phone-0123456789")
    expect(shown(phone).get_by_text(f"Another phone says {names[1]} won game 2.")).to_be_visible(
        timeout=POLL_WAIT
    )
    expect(asked(phone)).to_be_focused()
    asked(phone).get_by_role("button", name="No, it was the same game").click()
    expect(asked(phone)).to_have_count(0)

    expect(outbox(phone).get_by_text(f"Sent: {names[0]} won game 1")).to_be_visible(timeout=RETRIED)
    # Its own report, never shown to it as another phone's; the other phone's game 2 is.
    phone.reload()
    expect(shown(phone).get_by_text("Game 3: who won?")).to_be_visible()
    expect(shown(phone).get_by_text(f"Another phone says {names[0]} won")).to_have_count(0)
    expect(shown(phone).get_by_text(f"Another phone says {names[1]} won game 2.")).to_be_visible()

    until(phone, lambda: answers_lost)
    assert games_at(table) == {1: names[0], 2: names[1]}
    assert GameReport.objects.count() == 2
    nothing_waits(phone)
    stop_polling(phone)


def test_a_slow_answer_then_a_retap_as_soon_as_the_buttons_wake(live_server, new_context):
    _, table, names = playing_table()
    phone = open_phone(new_context, live_server, table)
    expect(shown(phone).get_by_text("Game 1: who won?")).to_be_visible()
    held = hold_answers(phone)
    winner_button(phone, names[1]).click()
    # At once, and for as long as the answer takes: what is on its way.
    expect(outbox(phone).get_by_text(f"Sending: {names[1]} won game 1…")).to_be_visible()
    expect(winner_button(phone, names[1])).to_be_disabled()
    until(phone, lambda: held)
    assert games_at(table) == {1: names[1]}
    route, response = held[0]
    route.fulfill(response=response)  # six seconds later, say
    phone.unroute(REPORT)
    expect(shown(phone).get_by_text(f"Game 1 recorded: {names[1]} won.")).to_be_visible()
    expect(outbox(phone).get_by_text("Sending:")).to_have_count(0)

    # The same name as soon as the buttons wake: asked; "yes" counts another game, once.
    expect(winner_button(phone, names[1])).to_be_enabled(timeout=4_000)
    winner_button(phone, names[1]).click()
    expect(asked(phone)).to_contain_text(f"Another game for {names[1]}?")
    asked(phone).get_by_role("button", name="Yes, count game 2").click()
    expect(shown(phone).get_by_text(f"Game 2 recorded: {names[1]} won.")).to_be_visible()

    assert games_at(table) == {1: names[1], 2: names[1]}
    assert GameReport.objects.count() == 2
    nothing_waits(phone)
    stop_polling(phone)


def test_a_reload_while_the_answer_is_on_its_way_then_a_retap(live_server, new_context):
    _, table, names = playing_table()
    phone = open_phone(new_context, live_server, table)
    expect(shown(phone).get_by_text("Game 1: who won?")).to_be_visible()
    held = hold_answers(phone)  # the answer never comes back to this page
    winner_button(phone, names[2]).click()
    expect(outbox(phone).get_by_text(f"Sending: {names[2]} won game 1…")).to_be_visible()
    phone.unroute(REPORT)
    phone.reload()

    # The reloaded page knows its report and asks about the next game...
    expect(shown(phone).get_by_text("Game 2: who won?")).to_be_visible()
    expect(shown(phone).get_by_text("Another phone says")).to_have_count(0)
    # ...and the same name again is asked about, whether its answer came back yet or not.
    expect(winner_button(phone, names[2])).to_be_enabled(timeout=4_000)
    winner_button(phone, names[2]).click()
    expect(asked(phone)).to_contain_text(f"Another game for {names[2]}?")
    asked(phone).get_by_role("button", name="No, it was the same game").click()

    expect(shown(phone).get_by_text("Game 2: who won?")).to_be_visible()
    until(phone, lambda: held)
    assert games_at(table) == {1: names[2]}
    assert GameReport.objects.count() == 1
    stop_polling(phone)


def test_offline_two_taps_are_two_games_and_the_notice_hides_neither(
    live_server, new_context, tmp_path
):
    folder = pictures("taps", tmp_path)
    _, table, names = playing_table()
    phone = open_phone(new_context, live_server, table)
    expect(shown(phone).get_by_text("Game 1: who won?")).to_be_visible()
    phone.context.set_offline(True)
    expect(phone.locator("#offline")).to_be_visible(timeout=POLL_WAIT)

    winner_button(phone, names[0]).click()
    first = outbox(phone).get_by_text(f"Waiting to send: {names[0]} won game 1")
    expect(first).to_be_visible()
    expect(shown(phone).get_by_text("Game 2: who won?")).to_be_visible()
    winner_button(phone, names[3]).click()
    second = outbox(phone).get_by_text(f"Waiting to send: {names[3]} won game 2")
    expect(second).to_be_visible()
    expect(first).to_be_visible()  # queued behind it, never in its place
    # The same name for the next game, straight after: asked, then queued too.
    expect(winner_button(phone, names[3])).to_be_enabled()
    winner_button(phone, names[3]).click()
    asked(phone).get_by_role("button", name="Yes, count game 3").click()
    expect(outbox(phone).get_by_text(f"Waiting to send: {names[3]} won game 3")).to_be_visible()

    # The no-connection notice covers none of what waits.
    notice = phone.locator("#offline").bounding_box()
    for line in outbox(phone).locator("li").all():
        box = line.bounding_box()
        assert box["y"] + box["height"] <= notice["y"] or box["y"] >= notice["y"] + notice["height"]
    snap(phone, folder / "taps-3-offline-waiting.png")

    phone.context.set_offline(False)
    expect(outbox(phone).get_by_text(f"Sent: {names[3]} won game 3")).to_be_visible(timeout=RETRIED)
    assert games_at(table) == {1: names[0], 2: names[3], 3: names[3]}
    assert GameReport.objects.count() == 3
    nothing_waits(phone)
    stop_polling(phone)


def test_a_tab_closed_while_its_report_waits(live_server, new_context):
    _, table, names = playing_table()
    context = new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    url = live_server.url + reverse("phone:table", args=[table.token])
    lost = context.new_page()
    lost.goto(url)
    lost.route(REPORT, lambda route: route.abort("internetdisconnected"))
    winner_button(lost, names[1]).click()
    expect(outbox(lost).get_by_text(f"Waiting to send: {names[1]} won game 1")).to_be_visible()
    lost.close()
    assert not Game.objects.exists()

    # The player opens the table's page again: the report goes by itself, once.
    phone = context.new_page()
    phone.goto(url)
    expect(outbox(phone).get_by_text(f"Sent: {names[1]} won game 1")).to_be_visible(timeout=RETRIED)
    expect(shown(phone).get_by_text("Game 2: who won?")).to_be_visible()
    assert games_at(table) == {1: names[1]}
    assert GameReport.objects.count() == 1
    nothing_waits(phone)
    stop_polling(phone)
