"""The console follows the room without a reload, and a poll replaces only what changed:
a report at one table updates that table's card and the round's totals while the
organizer's half-typed roster stays as it is."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from tests import factories
from tests.browser.conftest import sign_in
from tournament.writes.signin import ensure_organizer

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_report_updates_its_tables_card_and_keeps_the_rest(live_server, page: Page):
    user, _ = ensure_organizer()
    event = factories.start_rounds(factories.seated_event(owner=user, players=8, tables=2))
    sign_in(page, live_server, user)
    page.goto(live_server.url + reverse("organizer:event", args=[event.pk]))
    card = page.locator("#table-2")
    expect(card.locator("footer")).to_contain_text("0 games")
    names = page.locator("#roster textarea[name=names]")
    names.fill("Typed but not sent")
    other_card = page.locator("#table-1").element_handle()
    phase = page.locator("#phase").element_handle()

    factories.report(event, 2, factories.seated_players(event, 2)[0])

    expect(card.locator("footer")).to_contain_text("1 game", timeout=8_000)
    expect(page.locator("#round-panel")).to_contain_text("1 game reported")
    expect(names).to_have_value("Typed but not sent")
    # The same elements, not copies swapped in: only table 2's card was replaced.
    assert page.evaluate("(el) => el.isConnected", other_card)
    assert page.evaluate("(el) => el.isConnected", phase)


def test_results_and_disputes_that_arrive_by_polling_are_announced_once_and_counted(
    live_server, page: Page
):
    user, _ = ensure_organizer()
    event = factories.start_rounds(factories.seated_event(owner=user, players=8, tables=2))
    sign_in(page, live_server, user)
    page.goto(live_server.url + reverse("organizer:event", args=[event.pk]))
    # The poller carries what the page has told: round 1, no game, no dispute, none to check.
    expect(page.locator("#live-poll")).to_have_attribute("hx-get", re.compile(r"heard=1\.0\.0\.0$"))
    # Everything #announce says, in order (it is emptied before each message).
    page.evaluate(
        """() => {
          window.said = [];
          const region = document.getElementById("announce");
          new MutationObserver(() => {
            if (region.textContent) window.said.push(region.textContent);
          }).observe(region, {childList: true, characterData: true, subtree: true});
        }"""
    )
    said = lambda: page.evaluate("window.said")  # noqa: E731

    # Two results while the polls are held back: the next poll brings both at once.
    polls = "**/live/?*"
    page.route(polls, lambda route: route.abort())
    factories.report(event, 1, factories.seated_names(event, 1)[0])
    factories.report(event, 2, factories.seated_names(event, 2)[0])
    page.unroute(polls)
    expect(page.locator("#round-panel")).to_contain_text("2 games reported", timeout=8_000)
    page.wait_for_function("() => window.said.length >= 1")
    assert said() == ["2 new results."]

    # Another phone at table 1 names someone else: a dispute, and nothing said again.
    factories.report(event, 1, factories.seated_names(event, 1)[1], phone="other", game_number=1)
    expect(page.locator("#round-panel")).to_contain_text("1 disputed", timeout=8_000)
    page.wait_for_function("() => window.said.length >= 2")
    assert said() == ["2 new results.", "1 new dispute."]
    assert page.locator("#live-poll").get_attribute("data-news") is None
