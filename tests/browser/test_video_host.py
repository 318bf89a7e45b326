"""A player sees where their table's video link leads before pressing it: the host as text
beside "Join your table's video", on a phone (390 px) and in a laptop's top bar (1366 by
768; on a half screen of 683 px, under the button), which keeps its one line, and the page
grows no wider."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests import factories
from tests.browser.conftest import LAPTOP, PHONE, pictures, snap
from tests.screen_factories import deal_at, screen_event
from tournament.models import Player
from tournament.writes.signin import ensure_organizer

pytestmark = pytest.mark.django_db(transaction=True)

WAIT = 15_000  # ms: a live server on two busy cores
HOST = "us02web.zoom-meetings.example"
HALF = {"width": 683, "height": 768}  # a laptop's screen shared with a video call


def _overlap_vertically(page: Page, first: str, second: str) -> bool:
    a = page.locator(first).bounding_box()
    b = page.locator(second).bounding_box()
    assert a is not None
    assert b is not None
    return a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"]


def _inside(page: Page, inner: str, outer: str) -> bool:
    a = page.locator(inner).bounding_box()
    b = page.locator(outer).bounding_box()
    assert a is not None
    assert b is not None
    return b["y"] <= a["y"] and a["y"] + a["height"] <= b["y"] + b["height"]


@pytest.mark.parametrize(
    ("viewport", "name"), [(LAPTOP, "laptop"), (HALF, "half-laptop"), (PHONE, "phone")]
)
def test_the_video_links_host_shows_beside_its_button(
    live_server, new_context, tmp_path, viewport, name
):
    organizer = ensure_organizer()[0]
    event = screen_event(owner=organizer, players=8, tables=2, round_minutes=30)
    event.video_pattern = f"https://{HOST}/j/ft-{{event}}-{{table}}"
    event.save(update_fields=["video_pattern"])
    event = factories.start_rounds(event)
    me = Player.objects.get(pk=deal_at(event, 1).seats[0])
    page = new_context(viewport=viewport).new_page()

    page.goto(f"{live_server.url}/t/p/{me.token}/")

    button = page.get_by_role("link", name="Join your table's video")
    expect(button).to_be_visible(timeout=WAIT)
    expect(page.locator("#video-host")).to_be_visible()
    expect(page.locator("#video-host")).to_have_text(HOST)
    expect(button).to_have_accessible_description(HOST)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    if viewport is not PHONE:
        # In the top bar, whose one line the button shares with the table's badge.
        expect(page.locator("#live.at-table")).to_be_visible()
        assert _overlap_vertically(page, "#video-link", ".screen-top .phone-head")
        assert _inside(page, "#video-host", ".screen-top")
    if viewport is LAPTOP:
        assert _overlap_vertically(page, "#video-host", "#video-link")  # beside it
    snap(page, pictures("video-host", tmp_path) / f"video-host-{name}.png")
