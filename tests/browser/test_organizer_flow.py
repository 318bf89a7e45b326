"""A whole event run through the organizer console in a real browser, touching only the UI.

Roster of 13 names (one accented, one with markup), table plan, variants, every phase,
three rounds with results entered on the tables' views, each round closed with its moves
checked against the seats committed, one undo, and the debrief with the rules revealed.
The console and the projector are watched throughout: no action may make the browser
refuse anything under the Content-Security-Policy (tests/browser/test_content_security_policy).
Then the clock buttons that cannot apply any more hiding themselves at 0:00.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import Page, expect

from tests import factories
from tests.browser.conftest import PROJECTOR, sign_in
from tests.browser.test_content_security_policy import Watch
from tests.matching import search
from tournament.models import Event
from tournament.writes.signin import ensure_organizer

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Zoë", "<b>Bold</b>", "Ann", "Ben", "Cleo", "Dev", "Eva", "Finn", "Grace", "Hugo"]
NAMES += ["Ida", "Jonas", "Kai"]


def flash(page: Page):
    return page.locator("#flash")


def click_and_confirm(page: Page, label: str) -> None:
    """Press an action that asks first, in the page (no browser box), and say yes."""
    page.locator("details.confirm-inline > summary", has_text=label).click()
    page.locator("details.confirm-inline[open] .confirm-ask button[type=submit]").click()


def enter_results(page: Page, table_count: int, games: dict[int, list[int]]) -> None:
    """On each table's view, tap the winners (by their place in the table's list)."""
    for number in range(1, table_count + 1):
        page.locator(f"#table-{number} h3 a").click()
        expect(page.get_by_role("heading", name=f"Table {number}")).to_be_visible()
        buttons = page.locator(".tap-button")
        for game, place in enumerate(games.get(number, []), start=1):
            buttons.nth(place).click()
            expect(flash(page)).to_contain_text(f"Game {game} at table {number}")
        page.locator(".crumbs a").click()
        expect(page.locator("#phase")).to_be_visible()


def moves_shown(page: Page) -> dict[str, int]:
    """{player: table next round} as the close page shows them."""
    destinations = {}
    for card in page.locator(".cards.moves .card").all():
        here = int(search(r"\d+", card.locator("h3").inner_text()).group())
        for row in card.locator(".ranking li").all():
            name = row.locator(".name").inner_text()
            move = row.locator(".move").all_inner_texts()  # none after the last round
            found = re.search(r"\d+", "".join(move))
            destinations[name] = int(found.group()) if found else here
    return destinations


def seats_shown(page: Page) -> dict[str, int]:
    """{player: table} as the console's table cards show them."""
    seats = {}
    for card in page.locator("#tables .card").all():
        number = int((card.get_attribute("id") or "").removeprefix("table-"))
        for name in card.locator(".seats .name").all_inner_texts():
            seats[name] = number
    return seats


def close_round(page: Page, number: int, *, last: bool = False) -> dict[str, int]:
    page.get_by_role("link", name=f"Check results and close round {number}").first.click()
    expect(page.get_by_role("heading", name=f"Close round {number}")).to_be_visible()
    shown = moves_shown(page)
    assert sorted(shown) == sorted(NAMES)
    label = (
        f"Confirm: close round {number}, the last round"
        if last
        else f"Confirm: close round {number} and seat round {number + 1}"
    )
    page.get_by_role("button", name=label).click()
    expect(flash(page)).to_contain_text(f"Round {number} closed")
    return shown


def test_a_whole_event_through_the_console(live_server, page: Page, new_context):
    user, _ = ensure_organizer()
    watch = Watch(page)
    sign_in(page, live_server, user)

    # Events: a new event with 3 rounds; the other settings keep their defaults.
    page.get_by_role("link", name="New event").click()
    page.get_by_label("Name").fill("Friday workshop")
    page.get_by_label("Number of rounds").fill("3")
    expect(page.get_by_label("Round (minutes)")).to_have_value("5")
    page.get_by_role("button", name="Create the event").click()
    expect(page.get_by_role("heading", name="Friday workshop")).to_be_visible()
    # The projector follows the whole event, watched as the console is.
    projector = new_context(viewport=PROJECTOR).new_page()
    projector_watch = Watch(projector)
    token = Event.objects.get(name="Friday workshop").projector_token
    projector.goto(live_server.url + reverse("projector:screen", args=[token]))

    # Roster: a repeated name is refused with its line, and the text is kept to fix.
    box = page.get_by_label("Names, one per line")
    box.fill("\n".join([*NAMES, "zoë"]))
    page.get_by_role("button", name="Add to the roster").click()
    expect(page.locator(".form-errors")).to_contain_text(
        "Line 14: “zoë” clashes with “Zoë” on line 1 — names must differ by more than capital"
    )
    box = page.get_by_label("Names, one per line")
    expect(box).to_have_value("\n".join([*NAMES, "zoë"]))
    # The address bar shows the console, not the POST-only action: a reload works.
    console = page.url.split("#")[0]
    assert re.search(r"/console/\d+/#roster$", page.url), page.url
    reloaded = page.reload()
    assert reloaded is not None
    assert reloaded.status == 200
    expect(page.get_by_role("heading", name="Friday workshop")).to_be_visible()
    box = page.get_by_label("Names, one per line")
    box.fill("\n".join(NAMES) + "\n\n")
    page.get_by_role("button", name="Add to the roster").click()
    expect(flash(page)).to_contain_text("Added 13 players.")
    roster = page.locator("#roster-list")
    expect(roster.get_by_role("link", name="<b>Bold</b>", exact=True)).to_be_visible()
    expect(roster.get_by_role("link", name="Zoë", exact=True)).to_be_visible()
    assert roster.locator("b").count() == 0  # the markup is shown, not obeyed

    # Table plan: the suggestion, a reshuffle, and one player moved by hand.
    expect(page.locator("#plan")).to_contain_text("Suggested for 13 players: 3 tables")
    page.get_by_role("button", name="Make the table plan").click()
    expect(flash(page)).to_contain_text("Table plan made: 13 players at 3 tables")
    page.get_by_role("button", name="Reshuffle: deal the players again").click()
    expect(flash(page)).to_contain_text("Dealt again")
    # The reshuffle's seed is random: move Zoë to a table she does not sit at yet.
    target = 3 if seats_shown(page)["Zoë"] != 3 else 1
    page.locator("#plan select[name=player]").select_option(label="Zoë")
    page.locator("#plan select[name=table]").select_option(label=f"Table {target}")
    page.get_by_role("button", name="Move", exact=True).click()
    expect(flash(page)).to_contain_text(f"Zoë moved to table {target}.")
    assert seats_shown(page)["Zoë"] == target

    # Variants: only the organizer sees them; redraw one, then every table.
    expect(page.locator("#variants")).to_contain_text("trump")
    page.locator("#variants tbody tr").nth(1).get_by_role("button", name="Redraw").click()
    expect(flash(page)).to_contain_text("Table 2 now plays")
    page.get_by_role("button", name="Redraw every table").click()
    expect(flash(page)).to_contain_text("Every table has a new variant.")

    # Phases and the one clock.
    page.get_by_role("button", name="Start the study phase (5 min)").click()
    expect(page.locator("#phase-title")).to_have_text("Study the rules")
    expect(page.locator("#phase .clock")).to_have_text(re.compile(r"[45]:\d\d"))
    page.get_by_role("button", name="Pause").click()
    expect(page.locator("#phase .badge")).to_have_text("Paused")
    page.get_by_role("button", name="+1 min").click()
    expect(page.locator("#phase .clock")).to_have_text(re.compile(r"[56]:\d\d"))
    page.reload()  # the clock is kept on the server
    expect(page.locator("#phase .clock")).to_have_text(re.compile(r"[56]:\d\d"))
    page.get_by_role("button", name="Resume").click()
    expect(page.locator("#phase .badge")).to_have_count(0)
    page.get_by_role("button", name=re.compile("start practice")).click()
    expect(page.locator("#phase-title")).to_have_text("Practice")
    page.get_by_role("button", name="Start round 1 (5 min)").click()
    expect(page.locator("#phase-title")).to_have_text("Round 1 of 3")

    # Round 1: results tapped on each table's view, time up, then the close.
    enter_results(page, 3, {1: [0, 0, 1], 2: [2, 1, 2], 3: [3]})
    expect(page.locator("#round-panel")).to_contain_text("7 games reported")
    click_and_confirm(page, "Time is up now")
    expect(page.locator("#phase .time-up-note")).to_be_visible()
    shown = close_round(page, 1)
    expect(page.locator("#tables h2")).to_have_text("Seating for round 2: the moves")
    assert seats_shown(page) == shown

    # One undo: round 1 is open again, then closed again with the same moves.
    click_and_confirm(page, "Undo the close of round 1")
    expect(flash(page)).to_contain_text("Round 1 is open again")
    expect(page.locator("#phase-title")).to_have_text("Round 1 of 3")
    assert close_round(page, 1) == shown
    assert seats_shown(page) == shown

    # Rounds 2 and 3.
    page.get_by_role("button", name="Start round 2 (5 min)").click()
    expect(page.locator("#phase-title")).to_have_text("Round 2 of 3")
    enter_results(page, 3, {1: [1, 1], 2: [0], 3: [2, 0, 2]})
    shown = close_round(page, 2)
    assert seats_shown(page) == shown
    page.get_by_role("button", name="Start round 3 (5 min)").click()
    enter_results(page, 3, {1: [3], 2: [2, 2], 3: [1]})
    close_round(page, 3, last=True)

    # Debrief, once confirmed: the results are final, undo is no longer offered, and the
    # rules go up on the projector only now.
    expect(page.locator("summary", has_text="Undo the close of round 3")).to_be_visible()
    click_and_confirm(page, "Start the debrief")
    expect(page.locator("#phase-title")).to_have_text("Debrief")
    expect(page.locator("summary", has_text="Undo the close")).to_have_count(0)
    expect(page.locator("#round-panel")).to_contain_text("the results are final")
    assert page.url.startswith(console)
    page.get_by_role("button", name="Reveal every table's rules on the projector").click()
    expect(flash(page)).to_contain_text("The projector now shows every table's rules.")
    expect(page.locator("#corrections")).to_contain_text("Added by the organizer")
    expect(projector.locator("body")).to_contain_text("Table 1", timeout=6_000)
    assert watch.violations() == []
    assert projector_watch.violations() == []


def test_the_clock_buttons_that_cannot_apply_hide_at_0_00(live_server, page: Page):
    """The server leaves out Pause and "Time is up now" once time is up; at 0:00 the page
    hides them itself before the next refresh (clock.js marks the body)."""
    user, _ = ensure_organizer()
    event = factories.start_rounds(factories.seated_event(owner=user, players=8, tables=2))
    Event.objects.filter(pk=event.pk).update(clock_ends_at=timezone.now() + timedelta(minutes=5))
    page.clock.install()  # time runs as usual, and the test can jump ahead
    sign_in(page, live_server, user)
    page.goto(live_server.url + reverse("organizer:event", args=[event.pk]))
    pause = page.get_by_role("button", name="Pause")
    time_up_now = page.locator("summary", has_text="Time is up now")
    expect(pause).to_be_visible()
    expect(time_up_now).to_be_visible()
    # The page's five minutes pass at once (each timer fires once); the server's do not,
    # so what follows is the page's own doing, before any refresh.
    page.clock.fast_forward("05:01")
    expect(page.locator("#phase .clock")).to_have_text("0:00")
    expect(pause).to_be_hidden()
    expect(time_up_now).to_be_hidden()
    expect(page.locator("#phase .time-up-note")).to_be_visible()
    expect(page.get_by_role("button", name="+1 min")).to_be_visible()
    page.get_by_role("button", name="+1 min").click()  # time again: Pause is back
    expect(pause).to_be_visible()
