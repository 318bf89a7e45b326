"""The drawer's own stroke on its pad, in a real browser (static/js/pad.js): drawn at once
in its pending layer, it stays there until the table's state shown is as recent as the
version the server's answer named (X-Table-Version), then leaves it, so the line is
never missing and never drawn twice for long; a refused stroke, or one stored before
(no version said), leaves at its answer. The table's strokes carry no key of anyone's.

The live channel's push is played here by its two events (the answer's "ft:sent", the
state's "ft:pad" after #table-state changed), as static/js/screen.js sends them: under
pytest-django's live server there is no channel.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests import factories
from tests.screen_factories import deal_at, screen_event
from tournament.models import Player
from tournament.writes.signin import ensure_organizer

pytestmark = pytest.mark.django_db(transaction=True)

WAIT = 15_000  # ms

# A pending line as pad.js draws it, then the events screen.js sends (see the docstring).
PENDING = """([key]) => {
  const line = document.createElementNS("http://www.w3.org/2000/svg", "polyline");
  line.setAttribute("points", "10,10 40,40");
  line.setAttribute("data-pending", key);
  document.getElementById("pad-pending").appendChild(line);
}"""
ANSWERED = """([key, version]) => document.dispatchEvent(new CustomEvent("ft:sent", {
  detail: {key: key, fields: {kind: "red", points: "10,10 40,40"}, tableVersion: version},
}))"""
STATE = """([version]) => {
  document.getElementById("table-state").dataset.version = String(version);
  document.dispatchEvent(new CustomEvent("ft:pad"));
}"""


def test_a_pending_stroke_leaves_once_the_table_shows_its_version(live_server, page):
    event = factories.start_rounds(screen_event(owner=ensure_organizer()[0], players=8, tables=2))
    player = Player.objects.get(pk=deal_at(event, 1).seats[0])
    page.goto(f"{live_server.url}/t/p/{player.token}/")
    expect(page.locator("#pad-pending")).to_have_count(1, timeout=WAIT)
    shown = int(page.locator("#table-state").get_attribute("data-version"))
    pending = page.locator("#pad-pending polyline")

    page.evaluate(PENDING, ["key-stored"])
    page.evaluate(ANSWERED, ["key-stored", str(shown + 2)])
    expect(pending).to_have_count(1)  # stored at a later version than the one shown
    page.evaluate(STATE, [shown + 1])
    expect(pending).to_have_count(1)  # a state from before it: it is not there yet
    page.evaluate(STATE, [shown + 2])
    expect(pending).to_have_count(0)  # the state that holds it (or a clear after it)

    page.evaluate(PENDING, ["key-refused"])
    page.evaluate(ANSWERED, ["key-refused", None])
    expect(pending).to_have_count(0)  # refused, or stored before: gone at its answer

    page.evaluate(PENDING, ["key-waiting"])  # not answered yet: a new state keeps it
    page.evaluate(STATE, [shown + 9])
    expect(pending).to_have_count(1)
    assert page.locator("#pad-strokes [data-pending], #pad-strokes [data-k]").count() == 0
