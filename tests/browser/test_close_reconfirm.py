"""Closing a round when a result changed a move after the page showed it: the close is
refused, the page shows the new moves with each changed one marked in words, the marks
stay while the page updates itself, and the second confirmation closes the round."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from tests import factories
from tests.browser.conftest import LAPTOP, pictures, sign_in, snap
from tests.browser.test_content_security_policy import Watch
from tournament.models import Round, RoundStatus
from tournament.writes.signin import ensure_organizer

pytestmark = pytest.mark.django_db(transaction=True)

LIVE_MS = 8_000  # a 2 s poll and its answer, on a shared 2-core machine
LIVE_PART = "**/rounds/1/close/live/**"


def line_of(page: Page, name: str):
    return page.locator(".ranking li", has=page.get_by_text(name, exact=True))


def test_a_changed_move_is_marked_and_the_second_confirmation_closes(
    live_server, new_context, tmp_path
):
    user, _ = ensure_organizer()
    event = factories.start_rounds(factories.seated_event(owner=user, players=12, tables=3))
    page = new_context(LAPTOP).new_page()
    watch = Watch(page)
    sign_in(page, live_server, user)
    # The organizer reads the moves; the page's next poll has not come back yet when a
    # result changes one.
    page.route(LIVE_PART, lambda route: route.abort())
    page.goto(live_server.url + reverse("organizer:close_round", args=[event.pk, 1]))
    confirm = page.get_by_role("button", name="Confirm: close round 1 and seat round 2")
    expect(confirm).to_be_visible()
    table_2 = factories.seated_names(event, 2)
    expect(line_of(page, table_2[-1]).locator(".move")).to_contain_text("↓ 1")
    factories.report(event, 2, table_2[-1])  # last by the alphabet with 0 games, now first

    confirm.click()

    expect(
        page.locator(".message", has_text="Some moves changed while you were looking")
    ).to_be_visible()
    expect(page.get_by_text("3 moves changed since you confirmed.")).to_be_visible()
    expect(page.locator(".ranking li.changed")).to_have_count(3)
    moved = line_of(page, table_2[-1])
    expect(moved.locator(".move")).to_contain_text("↑ 3")
    expect(moved.locator(".changed-mark")).to_have_text("Changed (before: down to table 1)")
    expect(line_of(page, table_2[0]).locator(".changed-mark")).to_have_text(
        "Changed (before: up to table 3)"
    )
    expect(
        line_of(page, factories.seated_names(event, 1)[0]).locator(".changed-mark")
    ).to_have_count(0)
    snap(page, pictures("close", tmp_path) / "close-reconfirm-laptop.png", full_page=True)
    assert Round.objects.get(event=event, number=1).status == RoundStatus.OPEN

    # The page updates itself again; a result that changes no move keeps the marks.
    page.unroute(LIVE_PART)
    leader = factories.seated_names(event, 1)[0]
    factories.report(event, 1, leader)
    expect(line_of(page, leader).locator(".wins [aria-hidden='true']")).to_have_text(
        "1", timeout=LIVE_MS
    )
    expect(page.locator(".ranking li.changed")).to_have_count(3)

    page.get_by_role("button", name="Confirm: close round 1 and seat round 2").click()

    expect(page.locator(".message", has_text="Round 1 closed.")).to_be_visible()
    assert Round.objects.get(event=event, number=1).status == RoundStatus.CLOSED
    assert factories.seats_of(event, 2)[table_2[-1]] == 3
    assert watch.violations() == []
