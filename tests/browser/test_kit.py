"""The printed kit in a real browser: after it was printed, a changed table is named on
the console, and the kit prints just that table."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests import factories
from tests.browser.conftest import LAPTOP, sign_in
from tournament.writes.signin import ensure_organizer

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_table_changed_after_printing_is_named_and_reprinted_alone(live_server, new_context):
    organizer, _ = ensure_organizer()
    event = factories.seated_event(owner=organizer, players=12, tables=3)
    console = new_context(viewport=LAPTOP).new_page()
    sign_in(console, live_server, organizer)
    console.goto(live_server.url + reverse("organizer:event", args=[event.pk]))
    expect(console.locator(".reprint-warning")).to_have_count(0)

    kit = console.context.new_page()
    kit.goto(live_server.url + reverse("kit:event_kit", args=[event.pk]))  # printed
    expect(kit.locator("section.tent")).to_have_count(3)

    row = console.locator("#variants tbody tr").nth(1)  # table 2
    expect(row.locator("td").first).to_have_text("2")
    row.get_by_role("button", name="Redraw").click()
    warning = console.locator(".reprint-warning")
    expect(warning).to_contain_text("Reprint table 2")
    # The redraw's notice stays over the top of the page for 10 s, where the link scrolls
    # to (the Address and Wi-Fi section comes first during setup): dismissed, as a person would.
    notice = console.locator("#flash .message-success")
    expect(notice).to_have_count(1)
    notice.locator(".dismiss").click()
    expect(notice).to_have_count(0)

    with console.expect_popup() as popup:
        warning.get_by_role("link", name="Print just that table").click()
    reprint = popup.value
    expect(reprint.locator("section.tent")).to_have_count(1)
    expect(reprint.locator("section.tent")).to_have_attribute("aria-label", "Tent card for table 2")
    console.reload()
    expect(console.locator(".reprint-warning")).to_have_count(0)
