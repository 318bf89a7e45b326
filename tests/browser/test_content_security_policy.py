"""Every audience's main page under the Content-Security-Policy, in a real browser: nothing
refused (no inline script, style or eval), htmx configured without eval, and polling
still bringing reports in (tournament.middleware, static/js/poll.js).

Terms:
    violation  what Chromium reports when the policy refuses something: a
               "securitypolicyviolation" event in the page and a console error that
               starts "Refused to".
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from tests import factories
from tests.browser.conftest import LAPTOP, PHONE, PROJECTOR, sign_in
from tournament.writes.signin import ensure_organizer

pytestmark = pytest.mark.django_db(transaction=True)

LIVE_MS = 6_000  # a 2 s poll and its answer, on a shared 2-core machine

# Runs in every document before its own scripts; an init script is not subject to the
# page's policy, so it sees every violation the page causes. It hands each one to the
# test (Watch), so the violations of every document a page went through are kept.
RECORD_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (event) => {
    window.__reportViolation(
        `${location.pathname}: ${event.violatedDirective}: ${event.blockedURI} ${event.sample}`
    );
});
"""


class Watch:
    """A page's violations, in every document it showed (a click that loads another
    page, a reload): the policy's events and the console's "Refused to" errors."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.console: list[str] = []
        self.events: list[str] = []
        page.expose_function("__reportViolation", self._report)
        page.add_init_script(RECORD_VIOLATIONS)
        page.on("console", self._console)

    def _report(self, violation: str) -> None:
        self.events.append(violation)

    def _console(self, message) -> None:
        if message.type == "error" or "Content Security Policy" in message.text:
            self.console.append(message.text)

    def violations(self) -> list[str]:
        self.page.evaluate("1")  # a round trip, so the last reports have arrived
        return self.events + [text for text in self.console if "Refused" in text or "CSP" in text]


def open_page(context, url: str) -> tuple[Page, Watch]:
    page = context.new_page()
    watch = Watch(page)
    response = page.goto(url)
    assert response is not None, url
    assert response.status == 200, url
    assert "script-src 'self'" in response.headers["content-security-policy"]
    # "load", not "networkidle": screens poll every half second, so the network is never idle.
    page.wait_for_load_state("load")
    # The meta config reached htmx (the kit has none): nothing in the markup runs as code.
    config = page.evaluate(
        "window.htmx ? [htmx.config.allowEval, htmx.config.includeIndicatorStyles,"
        " htmx.config.attributesToSettle.includes('style')] : null"
    )
    assert config in (None, [False, False, False]), url
    return page, watch


def games_of(page: Page, name: str):
    return page.locator("li.row", has=page.get_by_text(name, exact=True)).locator(".games")


def test_every_audience_runs_under_the_policy_and_polls_bring_reports_in(live_server, new_context):
    organizer, _ = ensure_organizer()
    event = factories.start_rounds(
        factories.seated_event(owner=organizer, players=12, tables=3, rounds_planned=2)
    )
    at_two = factories.seated_names(event, 2)
    laptop = new_context(viewport=LAPTOP)
    sign_in(laptop.new_page(), live_server, organizer)

    console, console_watch = open_page(
        laptop, live_server.url + reverse("organizer:event", args=[event.pk])
    )
    _, kit_watch = open_page(laptop, live_server.url + reverse("kit:event_kit", args=[event.pk]))
    projector, projector_watch = open_page(
        new_context(viewport=PROJECTOR),
        live_server.url + reverse("projector:screen", args=[event.projector_token]),
    )
    phone, phone_watch = open_page(
        new_context(viewport=PHONE, has_touch=True, is_mobile=True),
        live_server.url + reverse("phone:table", args=[factories.table(event, 2).token]),
    )
    player, player_watch = open_page(
        new_context(viewport=PHONE),
        live_server.url + reverse("phone:player_home", args=[event.players_token]),
    )
    player.get_by_role("button", name=at_two[0], exact=True).click()
    expect(player.locator(".me")).to_contain_text(at_two[0])
    for page in (console, projector, phone, player):
        page.evaluate("window.__sameDocument = true")  # gone if the page reloads

    # A phone at table 2 reports: every polling page follows without a reload.
    factories.report(event, 2, at_two[0])
    expect(games_of(projector, at_two[0])).to_have_text("1", timeout=LIVE_MS)
    expect(phone.locator("#live")).to_contain_text(
        f"Another phone says {at_two[0]} won game 1.", timeout=LIVE_MS
    )
    expect(console.get_by_text("1 game reported")).to_be_visible(timeout=LIVE_MS)
    expect(player.locator("#live")).to_contain_text(
        "You have won 1 game this round.", timeout=LIVE_MS
    )
    for page in (console, projector, phone, player):
        assert page.evaluate("window.__sameDocument") is True

    # The projector's board has the server's sizes (not the stylesheet's stand-ins for a
    # page without JavaScript), though the markup carries no style attribute.
    board = projector.locator(".board").first
    lines = board.evaluate("el => getComputedStyle(el).getPropertyValue('--lines').trim()")
    assert lines != "22"
    assert f"--lines: {lines};" in board.get_attribute("data-vars")

    watches = {
        "console": console_watch,
        "kit": kit_watch,
        "projector": projector_watch,
        "table phone": phone_watch,
        "player": player_watch,
    }
    refused = {name: watch.violations() for name, watch in watches.items()}
    assert refused == {name: [] for name in watches}


def test_the_watch_sees_a_style_attribute_even_after_the_page_changed(live_server, page: Page):
    watch = Watch(page)
    page.goto(live_server.url + "/")
    page.evaluate(
        """document.body.insertAdjacentHTML("beforeend", '<p style="color: red">x</p>')"""
    )
    page.goto(live_server.url + "/")  # another document: what the first refused is kept
    expect(page.locator("body")).to_be_visible()
    assert [text.split(": ")[:2] for text in watch.violations()] == [["/", "style-src-attr"]]


def test_a_poll_swaps_in_parts_whose_old_twin_had_a_style_without_writing_one(
    live_server, new_context
):
    """htmx settles an element swapped in over one of the same id by giving it the old
    one's attributes for a moment. A style attribute, which the browser writes when the
    organizer resizes a text box and a script writes through the CSSOM, would be written
    back by script: refused by the policy, once per element."""
    organizer, _ = ensure_organizer()
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=8, tables=2))
    laptop = new_context(viewport=LAPTOP)
    sign_in(laptop.new_page(), live_server, organizer)
    console, watch = open_page(
        laptop, live_server.url + reverse("organizer:event", args=[event.pk])
    )
    for element in ("round-panel", "table-1", "tables-head"):
        console.evaluate(f"document.getElementById('{element}').style.setProperty('--x', '1')")

    factories.report(event, 1, factories.seated_names(event, 1)[0])
    expect(console.get_by_text("1 game reported")).to_be_visible(timeout=LIVE_MS)

    assert watch.violations() == []
