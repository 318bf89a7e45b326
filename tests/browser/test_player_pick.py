"""The players' link asks "Who are you?": the list of names narrows as the player types,
and the Find button still finds a name on a phone without JavaScript.

Terms:
    pick page   templates/phone/player_pick.html, the players' link before a name is
                picked (or with ?pick=1); static/js/pick.js narrows its list.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests import factories
from tests.browser.conftest import PHONE
from tests.browser.test_phones import PLAYERS
from tournament.writes.signin import ensure_organizer

pytestmark = pytest.mark.django_db(transaction=True)


def names_shown(page) -> list[str]:
    return [name.strip() for name in page.locator("#names button:visible").all_inner_texts()]


def test_the_names_narrow_as_the_player_types(live_server, new_context):
    organizer, _ = ensure_organizer()
    event = factories.seated_event(owner=organizer, players=PLAYERS, tables=2)
    page = new_context(viewport=PHONE, has_touch=True, is_mobile=True).new_page()
    page.goto(live_server.url + reverse("phone:player_home", args=[event.players_token]))
    expect(page.locator("#names button")).to_have_count(len(PLAYERS))
    # The venue's Wi-Fi gives no answer: the names on the page narrow all the same.
    page.route(re.compile(r"/names/"), lambda route: route.abort())

    page.get_by_label("Your name").press_sequentially("ha")
    expect(page.locator("#names button:visible")).to_have_count(3)
    assert names_shown(page) == ["Anne-Charlotte Vandenberghe", "Fatima Hakimi", "Ingrid Johansson"]
    page.get_by_label("Your name").press_sequentially("k")
    expect(page.locator("#names button:visible")).to_have_count(1)
    assert names_shown(page) == ["Fatima Hakimi"]
    # Accents and case do not matter: "emilie" finds Émilie.
    page.get_by_label("Your name").fill("")
    page.get_by_label("Your name").press_sequentially("EMILIE")
    expect(page.locator("#names button:visible")).to_have_count(1)
    assert names_shown(page) == ["Émilie García"]
    page.get_by_label("Your name").fill("")
    page.get_by_label("Your name").press_sequentially("zz")
    expect(page.locator("#names button:visible")).to_have_count(0)
    expect(page.get_by_text("No name matches.")).to_be_visible()
    # Narrowed on the page itself: every name is still there, the others hidden.
    expect(page.locator("#names button")).to_have_count(len(PLAYERS))
    page.unroute(re.compile(r"/names/"))
    page.get_by_label("Your name").fill("")
    page.get_by_label("Your name").press_sequentially("émilie")
    expect(page.locator("#names button:visible")).to_have_count(1)
    page.get_by_role("button", name="Émilie García").click()
    expect(page.get_by_text("Émilie García")).to_be_visible()


def test_the_find_button_finds_a_name_without_javascript(live_server, new_context):
    organizer, _ = ensure_organizer()
    event = factories.seated_event(owner=organizer, players=PLAYERS, tables=2)
    page = new_context(viewport=PHONE, java_script_enabled=False).new_page()
    page.goto(live_server.url + reverse("phone:player_home", args=[event.players_token]))
    page.get_by_label("Your name").fill("hak")
    page.get_by_role("button", name="Find").click()
    expect(page.locator("#names button")).to_have_count(1)
    expect(page.locator("#names button")).to_have_text("Fatima Hakimi")
