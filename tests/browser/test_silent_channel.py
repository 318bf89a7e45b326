"""The silent channel in real browsers, at a screen table of 4: one player draws (by
mouse) and another sees the stroke, a third draws by keyboard, a gesture shows on every
screen at the table, text typed or pasted into the pad is never drawn, each screen shows
its table's video link and, after the move, the new table's; the new table's pad starts
empty, and the debrief shows the tricks' chart and the old table's pad at the end of its
game.

Under pytest-django's live server there is no live channel (tournament.serving.asgi serves it):
the screens poll, as they do when the channel is down.
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from tables.models import Gesture, Stroke
from tables.writes.screen_play import game_of
from tests import factories
from tests.browser.conftest import LAPTOP, PHONE, pictures, sign_in, snap
from tests.browser.test_screen_tables import at, everyone_points, play_next_card, play_trick
from tests.screen_factories import deal_at, screen_event
from tournament.models import Player, Seat
from tournament.writes.rounds import advance_phase
from tournament.writes.signin import ensure_organizer

pytestmark = pytest.mark.django_db(transaction=True)

WAIT = 15_000  # ms: screens polling a live server on two cores
PATTERN = "https://meet.example/fivetricks-{table}"


# The pad's box, read in one task by its id: a poll's swap may replace the element between
# two of Playwright's calls, never within one script.
PAD_BOX = """() => {
  const pad = document.getElementById("pad");
  pad.scrollIntoView({block: "center"});
  const box = pad.getBoundingClientRect();
  return {x: box.x, y: box.y, width: box.width, height: box.height};
}"""


def draw_with_the_mouse(page: Page) -> None:
    expect(page.locator("#pad")).to_be_visible()
    box = page.evaluate(PAD_BOX)
    x, y = box["x"] + box["width"] * 0.2, box["y"] + box["height"] * 0.3
    page.mouse.move(x, y)
    page.mouse.down()
    for step in range(1, 11):
        page.mouse.move(x + step * box["width"] * 0.05, y + step * box["height"] * 0.04)
    page.mouse.up()


def drawings(page: Page, count: int):
    return page.locator("#pad-count").filter(has_text=f"{count} drawing")


def set_the_video_rooms(console: Page, live_server, event, shots) -> None:
    """The organizer sets the video rooms from the console: one pattern for every table,
    a first try without {table} refused with what was typed kept."""
    console.goto(f"{live_server.url}{reverse('organizer:event', args=[event.pk])}")
    console.get_by_role("link", name="Video rooms").click()
    console.get_by_label("One pattern for every table").fill("https://meet.example/{event}")
    console.get_by_role("button", name="Save").click()
    expect(console.locator(".errorlist")).to_contain_text("{table}")  # refused, kept
    expect(console.get_by_label("One pattern for every table")).to_have_value(
        "https://meet.example/{event}"
    )
    console.get_by_label("One pattern for every table").fill(PATTERN)
    console.get_by_role("button", name="Save").click()
    expect(console.locator(".message-success")).to_contain_text("video link")
    expect(console.get_by_text("Players see: https://meet.example/fivetricks-2")).to_be_visible()
    snap(console, shots / "video-rooms.png", full_page=True)


def draw_by_keyboard(page: Page, *, pen: str) -> None:
    """Space puts the pen down, the arrows move it, Space lifts it."""
    page.get_by_role("button", name=pen).click()
    page.locator("#pad").focus()
    page.keyboard.press("Space")
    for key in ["ArrowRight"] * 6 + ["ArrowDown"] * 4:
        page.keyboard.press(key)
    page.keyboard.press("Space")


def text_never_draws(cy: Page, *, watcher: Page) -> None:
    """Typed or pasted text never lands on the pad, and no stroke is made of it (two
    strokes are on the pad before)."""
    cy.locator("#pad").focus()
    cy.keyboard.type("TrumpIsHearts!?")  # letters (Space is the pen's key)
    cy.keyboard.insert_text("the ace is low")
    cy.locator("#pad").dispatch_event("paste")
    cy.locator("#pad").dispatch_event("drop")
    # A stroke after them is the third: the outbox sends in order, so anything the typing
    # or the paste had queued would have gone first.
    draw_with_the_mouse(cy)
    expect(drawings(watcher, 3)).to_have_count(1, timeout=WAIT)
    assert Stroke.objects.count() == 3
    assert "trump" not in cy.locator("#pad-area").inner_html()
    assert cy.locator("#pad-area input[type=text], #pad-area textarea, #pad-area text").count() == 0


def each_screen_shows_its_next_tables_video(pages: dict[int, Page], shots) -> None:
    """After the close each screen shows where its player goes and that table's video."""
    for pk, page in pages.items():
        number = Seat.objects.get(player_id=pk, round__number=2).table.number
        expect(page.locator("#video-link")).to_have_attribute(
            "href", f"https://meet.example/fivetricks-{number}", timeout=WAIT
        )
    mover = next(
        pk for pk in pages if Seat.objects.get(player_id=pk, round__number=2).table.number == 2
    )
    snap(pages[mover], shots / "video-link-after-the-move.png", full_page=True)


def the_console_shows_the_pad_and_a_gesture(console: Page, live_server, event, shots) -> None:
    console.goto(f"{live_server.url}{reverse('organizer:table', args=[event.pk, 1])}")
    expect(console.locator(".console-pad .pad-view polyline")).to_have_count(3, timeout=WAIT)
    expect(console.locator(".gesture-badge").filter(has_text="raises a hand")).to_be_visible(
        timeout=WAIT
    )
    snap(console, shots / "console-table-pad.png", full_page=True)


def two_players_draw(ada: Page, bo: Page) -> None:
    """Ada draws with the mouse and Bo sees it; Bo draws by keyboard and Ada sees it."""
    # One player draws with the mouse; another sees the stroke.
    draw_with_the_mouse(ada)
    expect(drawings(bo, 1)).to_have_count(1, timeout=WAIT)
    expect(bo.locator("#pad-strokes polyline.ink-black")).to_have_count(1)
    # The drawer's own line leaves its pending layer once the table's strokes hold it:
    # drawn once, with no key of the drawer's on the table's strokes.
    expect(ada.locator("#pad-pending polyline")).to_have_count(0, timeout=WAIT)
    expect(ada.locator("#pad-strokes polyline")).to_have_count(1)
    assert bo.locator("#pad [data-pending], #pad [data-k]").count() == 0
    # Another draws by keyboard in red: Space puts the pen down, arrows move it, Space lifts.
    draw_by_keyboard(bo, pen="Red pen")
    expect(drawings(ada, 2)).to_have_count(1, timeout=WAIT)
    expect(ada.locator("#pad-strokes polyline.ink-red")).to_have_count(1)
    assert Stroke.objects.count() == 2


def test_drawings_gestures_and_the_video_room_at_a_table_of_four(
    live_server, new_context, tmp_path
):
    organizer = ensure_organizer()[0]
    event = screen_event(owner=organizer, players=8, tables=2, round_minutes=30)
    console = new_context(viewport=LAPTOP).new_page()
    sign_in(console, live_server, organizer)
    shots = pictures("silent-channel", tmp_path)
    set_the_video_rooms(console, live_server, event, shots)
    event = factories.start_rounds(event)
    deal = deal_at(event, 1)
    seats = list(deal.seats)
    pages: dict[int, Page] = {}
    for index, player in enumerate(Player.objects.filter(pk__in=seats)):
        context = new_context(viewport=PHONE if index % 2 == 0 else LAPTOP)
        pages[player.pk] = context.new_page()
        pages[player.pk].goto(f"{live_server.url}/t/p/{player.token}/")
    ada, bo, cy, dee = (pages[pk] for pk in seats)
    for page in pages.values():
        expect(page.locator("#video-link")).to_have_attribute(
            "href", "https://meet.example/fivetricks-1", timeout=WAIT
        )

    two_players_draw(ada, bo)

    text_never_draws(cy, watcher=ada)

    # A gesture shows beside the seat on every screen at the table.
    cy.get_by_role("button", name="Gesture: confused").click()
    cy_name = Player.objects.get(pk=seats[2]).name
    for page in pages.values():
        expect(page.get_by_role("img", name=f"{cy_name}: confused")).to_be_visible(timeout=WAIT)
    # Pointing at a card on the table shows that card beside the seat.
    _player, code = play_next_card(pages, deal)
    dee.locator(f'.trick-card[data-card="{code}"] .point-at').click()
    dee_name = Player.objects.get(pk=seats[3]).name
    pointing = ada.get_by_role("img", name=f"{dee_name}: points at a card")
    expect(pointing).to_be_visible(timeout=WAIT)
    assert Gesture.objects.filter(kind="point", card=code).count() == 1
    snap(ada, shots / "table-with-drawing-and-gesture-390.png", full_page=True)
    snap(bo, shots / "table-with-drawing-and-gesture-1280.png", full_page=True)
    # The console's table page shows the pad and the gestures.
    bo.get_by_role("button", name="Gesture: raise a hand").click()
    the_console_shows_the_pad_and_a_gesture(console, live_server, event, shots)
    # A gesture goes by itself after a few seconds.
    expect(ada.get_by_role("img", name=f"{cy_name}: confused")).to_have_count(0, timeout=WAIT)
    # The trick is finished and taken, so game 1 counts by it at the close.
    play_trick(pages, deal)
    everyone_points(pages, deal, code)  # the leader's card: the table agrees on it
    expect(at(ada, 1, 2)).to_be_visible(timeout=WAIT)

    # The round closes: each screen shows where its player goes and that table's video.
    event = factories.close_current_round(event, organizer)
    each_screen_shows_its_next_tables_video(pages, shots)

    # Round 2: every pad is empty, at the old table and the new.
    advance_phase(event=event)
    for page in pages.values():
        expect(page.locator(".hand-cards button.card").first).to_be_visible(timeout=WAIT)
        expect(drawings(page, 0)).to_have_count(1, timeout=WAIT)
        expect(page.locator("#pad-strokes polyline")).to_have_count(0)
    assert game_of(deal_at(event, 1)).trick is not None

    # The debrief shows the tricks' chart and table 1's pad as it was when game 1 ended.
    story = reverse("organizer:debrief_tricks", args=[event.pk])
    console.goto(f"{live_server.url}{story}?round=1&table=1&game=1&trick=1")
    expect(console.locator("svg.chart-tricks").first).to_be_visible()
    pad = console.locator("#choice .pad-view")
    expect(pad).to_be_visible()
    expect(pad.locator("polyline")).to_have_count(3)
