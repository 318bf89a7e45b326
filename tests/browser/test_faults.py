"""A console action that the server cannot save, in a real browser: the full disk is said
in red at once (static/js/organizer.js shows the server's one line), what was typed stays
in the form, the console's red warning follows, and nothing breaks the
Content-Security-Policy."""

from __future__ import annotations

from unittest import mock

import pytest
from django.db import OperationalError
from django.urls import reverse
from playwright.sync_api import Page, expect

from tests import factories
from tests.browser.conftest import sign_in
from tests.browser.test_content_security_policy import Watch
from tournament.common import disk
from tournament.models import Player
from tournament.writes.signin import ensure_organizer

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def forgotten():
    disk.forget_disk_full()
    yield
    disk.forget_disk_full()


def test_a_roster_that_the_full_disk_refuses_is_said_in_red_and_kept(live_server, page: Page):
    organizer, _ = ensure_organizer()
    event = factories.make_event(owner=organizer)
    watch = Watch(page)
    sign_in(page, live_server, organizer)
    page.goto(live_server.url + reverse("organizer:event", args=[event.pk]))
    expect(page.locator(".disk-warning")).to_have_count(0)
    box = page.get_by_label("Names, one per line")
    box.fill("Ada\nBo\nCy")

    full = OperationalError("database or disk is full")
    with mock.patch("tournament.views.organizer.roster.add_players", side_effect=full):
        page.get_by_role("button", name="Add to the roster").click()
        note = page.locator("#fault-note")
        expect(note).to_have_text(
            "The laptop's disk is full: this was not saved. Free some space on the laptop "
            "(empty the bin, move large files away), then try again."
        )
    expect(note).to_have_attribute("role", "alert")
    expect(page.get_by_label("Names, one per line")).to_have_value("Ada\nBo\nCy")
    assert not Player.objects.filter(event=event).exists()

    page.reload()
    expect(page.locator(".disk-warning")).to_contain_text("The disk is full")
    assert watch.violations() == []
