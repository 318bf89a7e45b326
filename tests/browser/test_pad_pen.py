"""The keyboard's pen on a player's pad, in a real browser on a 390 px phone
(static/js/pad.js, phone/_pad.html): hidden until the pad has the focus, then seen where
the arrows move it, lifted (a ring) and put down (filled), and hidden again when the
focus leaves the pad. Seen means the browser draws it: displayed, visible and with a box
of some size on the screen, not a property no SVG element reads.

With SCREENSHOTS=1 the phone with the pen down is pictured (screenshots/pad/).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests import factories
from tests.browser.conftest import PHONE, pictures, snap
from tests.screen_factories import deal_at, screen_event
from tournament.models import Player
from tournament.writes.signin import ensure_organizer

pytestmark = pytest.mark.django_db(transaction=True)

WAIT = 15_000  # ms
ACCENT = "rgb(11, 87, 208)"  # base.css's --accent, #0b57d0

# What the browser draws of the pen, read in one task: a poll's swap may replace the
# pad between two of Playwright's calls, never within one script.
PEN = """() => {
  const pen = document.getElementById("pad-pen");
  const style = getComputedStyle(pen);
  const box = pen.getBoundingClientRect();
  return {display: style.display, visibility: style.visibility, fill: style.fill,
          fillOpacity: style.fillOpacity, width: box.width, height: box.height,
          x: box.x + box.width / 2, y: box.y + box.height / 2};
}"""


def pen(page) -> dict:
    return page.evaluate(PEN)


def seen(drawn: dict) -> bool:
    return drawn["display"] != "none" and drawn["visibility"] == "visible" and drawn["width"] >= 12


def test_the_keyboard_pen_is_seen_up_and_down(live_server, new_context, tmp_path):
    event = factories.start_rounds(screen_event(owner=ensure_organizer()[0], players=8, tables=2))
    player = Player.objects.get(pk=deal_at(event, 1).seats[0])
    page = new_context(viewport=PHONE).new_page()
    page.goto(f"{live_server.url}/t/p/{player.token}/")
    expect(page.locator("#pad")).to_be_visible(timeout=WAIT)
    assert not seen(pen(page))  # no focus on the pad: no pen

    page.locator("#pad").focus()
    up = pen(page)
    assert seen(up), up
    assert up["fill"] == "none"  # lifted: a ring
    for key in ["ArrowRight"] * 5 + ["ArrowDown"] * 3:
        page.keyboard.press(key)
    moved = pen(page)
    assert seen(moved), moved
    assert moved["x"] > up["x"]  # it follows the arrows
    assert moved["y"] > up["y"]

    page.keyboard.press("Space")
    for key in ["ArrowRight"] * 4 + ["ArrowUp"] * 2:
        page.keyboard.press(key)
    down = pen(page)
    assert seen(down), down
    # Down: filled with the accent itself (phone.css: 6.39:1 on the pad's white).
    assert down["fill"] == ACCENT
    assert float(down["fillOpacity"]) == 1
    expect(page.locator("#pad-pending polyline")).to_have_count(1)
    page.locator("#pad").scroll_into_view_if_needed()
    snap(page, pictures("pad", tmp_path) / "pad-pen-down.png")

    page.keyboard.press("Space")
    lifted = pen(page)
    assert seen(lifted), lifted
    assert lifted["fill"] == "none"
    page.get_by_role("button", name="Clear the pad").focus()
    expect(page.locator("#pad-pen")).to_be_hidden()
    assert not seen(pen(page))
