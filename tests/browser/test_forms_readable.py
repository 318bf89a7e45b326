"""Forms and printed headers read whole: the tally sheet's "Game" heading is never broken
inside a word (the French "Parti/e"), the new-event form's differences select shows its
longest choice, and a custom set's clause boxes show only when the custom set is chosen,
each box on the line of its words. With SCREENSHOTS=1, pictures for a person to look at."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests import factories
from tests.browser.conftest import LAPTOP, pictures, sign_in, snap
from tournament.models import Event
from tournament.writes.signin import ensure_organizer

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Ana Bell", "Bo Chen", "Cy Dow", "Di Egan", "Ed Fox", "Flo Gray", "Gus Hale", "Hal Ide"]


@pytest.mark.parametrize("language", ["fr", "es"])
def test_the_tally_sheets_game_heading_is_one_line(live_server, new_context, tmp_path, language):
    user, _ = ensure_organizer()
    event = factories.start_rounds(
        factories.seated_event(owner=user, players=NAMES, tables=2, name="Salle")
    )
    Event.objects.filter(pk=event.pk).update(language=language)
    page = new_context(LAPTOP).new_page()
    sign_in(page, live_server, user)
    page.goto(live_server.url + reverse("kit:tally_sheets", args=[event.pk]) + "?round=1")
    heading = page.locator("thead th.tally-game").first
    expect(heading).to_be_visible()
    lines = heading.evaluate(
        """(th) => { const range = document.createRange(); range.selectNodeContents(th);
             return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size; }"""
    )
    assert lines == 1, heading.inner_text()
    shots = pictures("forms", tmp_path)
    snap(page.locator(".tally-sheet").first, shots / f"tally-{language}.png")


def test_the_differences_select_and_the_custom_clauses_read_whole(
    live_server, new_context, tmp_path
):
    user, _ = ensure_organizer()
    page = new_context(LAPTOP).new_page()
    sign_in(page, live_server, user)
    page.goto(live_server.url + reverse("organizer:event_new"))
    select = page.locator("select[name=difference_set]")
    expect(select).to_be_visible()
    # Wide enough for its longest choice in its own font.
    room, needed = select.evaluate(
        """(select) => { const style = getComputedStyle(select);
             const ctx = document.createElement('canvas').getContext('2d');
             ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
             const widths = [...select.options].map((o) => ctx.measureText(o.text).width);
             const padding = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
             const inner = select.clientWidth - padding;
             const widest = Math.max(...widths);
             return [inner, widest]; }"""
    )
    assert room >= needed, (room, needed)
    clauses = page.locator(".field-custom-clauses")
    expect(clauses).to_be_hidden()
    shots = pictures("forms", tmp_path)
    snap(page.locator("form.stack"), shots / "new-event-classic.png")
    select.select_option("custom")
    expect(clauses).to_be_visible()
    for box in clauses.locator("input[type=checkbox]").all():
        label = box.locator("xpath=..")
        tick, words = box.bounding_box(), label.bounding_box()
        # The box is on its words' line, left of them, not stacked above.
        assert tick["y"] >= words["y"] - 1
        assert tick["y"] + tick["height"] <= words["y"] + words["height"] + 1
        assert tick["width"] < words["width"] / 2
    snap(page.locator("form.stack"), shots / "new-event-custom.png")
