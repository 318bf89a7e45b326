"""A tap is never lost and never counted twice, in a real browser (static/js/phone.js's
outbox), and each tap answers the question it was made on.

The first test loses the connection one way after another: a phone offline, a server
answering 500 (tournament.common.fault_switch, for tests only), a page reloaded while a
report waits, a proxy's error page in place of an answer the server did send. At the end
each game is stored exactly once. The second has one phone report the game another phone
is looking at: the stale page's tap confirms or disputes that game, never the next one,
and a poll that changes the question locks the buttons, says so and moves the focus.
With SCREENSHOTS=1 they take pictures of the states at 390 px into ./screenshots/outbox.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import Page, Request, expect

from tables.models import Game, GameReport, GameStatus
from tests import factories
from tests.browser.conftest import PHONE, pictures, snap
from tests.browser.test_content_security_policy import Watch
from tests.browser.test_phones import POLL_WAIT, open_phone, shown, stop_polling, winner_button
from tournament.common.fault_switch import fail_next_reports
from tournament.writes.signin import ensure_organizer

pytestmark = pytest.mark.django_db(transaction=True)

RETRIED = 30_000  # ms: three failures, each retried after a backing-off wait (2 s, 4 s, 8 s)
REPORT = re.compile(r"/(report|tricks)/$")


@pytest.fixture
def faults():
    yield fail_next_reports
    fail_next_reports(0)


def outbox(phone: Page):
    return phone.locator("#outbox")


def watched_phone(new_context, live_server, table) -> tuple[Page, Watch]:
    """A phone whose Content-Security-Policy violations are recorded from its first page."""
    phone = new_context(viewport=PHONE, has_touch=True, is_mobile=True).new_page()
    watch = Watch(phone)
    phone.goto(live_server.url + reverse("phone:table", args=[table.token]))
    return phone, watch


def posts_to_report(phone: Page) -> list:
    sent = []

    def keep(request: Request) -> None:
        if request.method == "POST" and REPORT.search(request.url):
            sent.append(request)

    phone.on("request", keep)
    return sent


def test_no_tap_is_lost_or_counted_twice(live_server, new_context, faults, tmp_path):
    folder = pictures("outbox", tmp_path)
    organizer, _ = ensure_organizer()
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=8, tables=2))
    at_one, at_two = factories.seated_names(event, 1), factories.seated_names(event, 2)
    phone_a = open_phone(new_context, live_server, factories.table(event, 1))
    phone_b = open_phone(new_context, live_server, factories.table(event, 2))
    for phone in (phone_a, phone_b):
        expect(shown(phone).get_by_text("Game 1: who won?")).to_be_visible()

    # Phone A taps with no connection: the report waits on the phone, and says so.
    phone_a.context.set_offline(True)
    # The phone notices at its next poll, and says so above the page (which moves down as
    # the notice appears): the tap comes once the page is still.
    expect(phone_a.locator("#offline")).to_be_visible(timeout=POLL_WAIT)
    winner_button(phone_a, at_one[0]).click()
    waiting_a = f"Waiting to send: {at_one[0]} won game 1"
    expect(outbox(phone_a).get_by_text(waiting_a)).to_be_visible()
    snap(phone_a, folder / "outbox-1-waiting.png")
    assert not Game.objects.exists()

    # Phone B's server fails three times: the report waits through a reload of the page.
    faults(3)
    posts_b = posts_to_report(phone_b)
    winner_button(phone_b, at_two[0]).click()
    waiting_b = f"Waiting to send: {at_two[0]} won game 1"
    expect(outbox(phone_b).get_by_text(waiting_b)).to_be_visible()
    phone_b.reload()
    expect(outbox(phone_b).get_by_text(waiting_b)).to_be_visible()
    expect(outbox(phone_b).get_by_text(f"Sent: {at_two[0]} won game 1")).to_be_visible(
        timeout=RETRIED
    )
    expect(shown(phone_b).get_by_text(f"Game 1 recorded: {at_two[0]} won.")).to_be_visible()
    expect(outbox(phone_b).get_by_text(waiting_b)).to_have_count(0)
    assert len(posts_b) >= 4  # three 500s, then the one stored (the reload lost none)
    snap(phone_b, folder / "outbox-2-sent.png")

    # Phone A comes back: its report goes by itself, with no tap.
    phone_a.context.set_offline(False)
    expect(outbox(phone_a).get_by_text(f"Sent: {at_one[0]} won game 1")).to_be_visible(
        timeout=POLL_WAIT
    )
    expect(shown(phone_a).get_by_text(f"Game 1 recorded: {at_one[0]} won.")).to_be_visible()

    # A proxy's error page comes back though the server stored the report: the phone
    # sends it again, and the server counts it once.
    def stored_but_answer_lost(route):
        route.fetch()
        route.fulfill(status=502, content_type="text/html", body="<h1>502 Bad Gateway</h1>")

    phone_b.route(REPORT, stored_but_answer_lost)
    expect(winner_button(phone_b, at_two[1])).to_be_enabled(timeout=4_000)
    winner_button(phone_b, at_two[1]).click()
    expect(outbox(phone_b).get_by_text(f"Waiting to send: {at_two[1]} won game 2")).to_be_visible()
    phone_b.unroute(REPORT)
    expect(outbox(phone_b).get_by_text(f"Sent: {at_two[1]} won game 2")).to_be_visible(
        timeout=RETRIED
    )
    expect(shown(phone_b).get_by_text(f"Game 2 recorded: {at_two[1]} won.")).to_be_visible()

    # Each game once, none lost, and nothing left waiting on either phone.
    games = {(g.table.number, g.number): g.winner.name for g in Game.objects.all()}
    assert games == {(1, 1): at_one[0], (2, 1): at_two[0], (2, 2): at_two[1]}
    assert GameReport.objects.count() == 3
    for phone in (phone_a, phone_b):
        assert phone.evaluate("JSON.parse(localStorage.getItem('ft-outbox') || '[]')") == []
    stop_polling(phone_a, phone_b)


def test_a_tap_answers_the_game_it_was_made_on(live_server, new_context, tmp_path):
    folder = pictures("outbox", tmp_path)
    organizer, _ = ensure_organizer()
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=8, tables=2))
    names = factories.seated_names(event, 1)
    for winner in names[:2]:
        factories.report(event, 1, winner, phone="someone-elses-phone")
    one = factories.table(event, 1)
    phone_a, watch_a = watched_phone(new_context, live_server, one)
    phone_b, watch_b = watched_phone(new_context, live_server, one)
    for phone in (phone_a, phone_b):
        expect(shown(phone).get_by_text("Game 3: who won?")).to_be_visible()

    # Phone B's page is stale (its polls get no answer) when phone A reports game 3.
    phone_b.route(re.compile(r"/live/"), lambda route: route.abort())
    winner_button(phone_a, names[2]).click()
    expect(shown(phone_a).get_by_text(f"Game 3 recorded: {names[2]} won.")).to_be_visible()
    expect(shown(phone_b).get_by_text("Game 3: who won?")).to_be_visible()

    # Its tap on "who won game 3?" disputes game 3: it does not report a game 4.
    winner_button(phone_b, names[3]).click()
    expect(
        shown(phone_b).get_by_text(
            "Game 3: another phone named someone else — the organizer will settle it."
        )
    ).to_be_visible()
    assert Game.objects.get(table=one, number=3).status == GameStatus.DISPUTED
    assert not Game.objects.filter(table=one, number=4).exists()
    phone_b.unroute(re.compile(r"/live/"))

    # Phone A reports game 4 with the tricks of a game cut off (sent through the outbox,
    # the page then shows the table again).
    expect(shown(phone_a).get_by_text("Game 4: who won?")).to_be_visible(timeout=POLL_WAIT)
    phone_a.get_by_role("link", name="Time up mid-game? Enter the tricks").click()
    phone_a.get_by_label(names[0]).fill("3")
    phone_a.get_by_label(names[1]).fill("1")
    phone_a.get_by_role("button", name="Save this game").click()
    expect(shown(phone_a).get_by_text(f"Game 4 recorded: {names[0]} won.")).to_be_visible()
    assert phone_a.url.endswith(f"/t/{one.token}/")

    # Phone B's next poll brings it: the page says so, the focus moves to the choice, and
    # for a moment nothing acts under the finger that was about to tap "game 4".
    says = f"Another phone says {names[0]} won game 4."
    box = phone_b.locator(".confirm-box")
    expect(box).to_contain_text(says, timeout=POLL_WAIT)
    posts_b = posts_to_report(phone_b)
    expect(box).to_be_focused()
    expect(winner_button(phone_b, names[1])).to_be_disabled()
    winner_button(phone_b, names[1]).click(force=True)
    expect(box).to_contain_text(f"Tricks so far: {names[0]} 3, {names[1]} 1, {names[2]} 0")
    expect(phone_b.locator("#announce")).to_contain_text(says)
    snap(phone_b, folder / "outbox-3-confirm-with-tricks.png")
    assert posts_b == []
    assert not Game.objects.filter(table=one, number=5).exists()

    # Once the buttons wake, the confirmation confirms game 4.
    phone_b.get_by_role("button", name="Yes, confirm game 4").click()
    expect(shown(phone_b).get_by_text(f"Game 4 confirmed: {names[0]} won.")).to_be_visible()
    assert Game.objects.get(table=one, number=4).status == GameStatus.CONFIRMED
    assert Game.objects.filter(table=one).count() == 4
    assert watch_a.violations() == watch_b.violations() == []
    stop_polling(phone_a, phone_b)
