"""The console's layout holds with odd input: a refused 200-character name wraps inside
the page instead of stretching it sideways."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests import factories
from tests.browser.conftest import LAPTOP, sign_in
from tournament.writes.signin import ensure_organizer

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_refused_long_name_wraps_inside_the_page(live_server, new_context):
    organizer, _ = ensure_organizer()
    event = factories.make_event(owner=organizer)
    page = new_context(viewport=LAPTOP).new_page()
    sign_in(page, live_server, organizer)
    page.goto(live_server.url + reverse("organizer:event", args=[event.pk]) + "#roster")
    page.locator("#roster textarea").fill("Ann\n" + "W" * 200)
    page.locator("#roster").get_by_role("button", name="Add to the roster").click()
    expect(page.locator(".form-errors")).to_contain_text("WWWW")
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0
