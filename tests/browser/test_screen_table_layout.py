"""A player's screen at a screen event laid out as a card table on a laptop (issue 39,
items 3 to 5): the seats around the cards in play, the hand along the bottom, the pad and
the gestures beside; in study the rules beside the hand; the phone keeps its column; at
time up the table stays as it stood; the vote and the pointing gesture look apart.

Terms:
    fits        the page does not scroll (the document no taller than the viewport) and
                the boxes a player needs lie inside the viewport: the cards in play, the
                hand, the pad (and in study the rules' top).
    laptop      1366x768, 1280x720, 683x768 (a laptop's screen shared half and half with
                a video call), and 1366x650 (a browser's window on a 1366x768 screen, less
                its tabs and toolbar).
    gesture     the finger on a card before every card is down: "look at this one",
                binding nobody (tables.rules.silent_channel: POINT).
    vote        the card itself once every card is down: the binding pointing that takes
                the trick when the table agrees (tables.rules.screen_play).

The game is set up by the writes (other tests play it from the screens); under
pytest-django's live server there is no live channel: the screens poll.
With SCREENSHOTS=1 each screen is pictured into ./screenshots/screen-table/.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tables.models import ScreenSeat
from tables.writes.screen_play import game_of, play_card, point_at_card
from tables.writes.screen_seats import hold_seat
from tables.writes.silent_channel import make_gesture
from tests import factories
from tests.browser.conftest import LAPTOP, PHONE, pictures, snap
from tests.screen_factories import deal_at, device_of, everyone_points, key
from tournament.common.phone_ids import signed_phone_id
from tournament.models import Event, Player
from tournament.writes.rounds import advance_phase
from tournament.writes.signin import ensure_organizer

pytestmark = pytest.mark.django_db(transaction=True)

WAIT = 15_000
NAMES = ["Dolores Ibáñez", "Farid Haddad", "Amara Okafor", "Bjørn Sæther", "Mei Lin"]
LAPTOPS = [
    LAPTOP,
    {"width": 1280, "height": 720},
    {"width": 683, "height": 768},
    {"width": 1366, "height": 650},
]
IN_PLAY = {"hand": ".hand-cards", "cards in play": ".felt", "pad": "#pad"}

# What "fits" measures (see Terms): the page's size against the viewport's, and each
# named box's edges.
FIT = """(selectors) => {
  const boxes = {};
  for (const [name, selector] of Object.entries(selectors)) {
    const el = document.querySelector(selector);
    const r = el && el.getBoundingClientRect();
    boxes[name] = r ? {top: r.top, bottom: r.bottom, left: r.left, right: r.right} : null;
  }
  const root = document.documentElement;
  return {height: root.scrollHeight, width: root.scrollWidth, boxes,
          viewport: {height: innerHeight, width: innerWidth}};
}"""
# The cards in play: their boxes, each inside the felt, and no two overlapping.
TRICK = """() => {
  const felt = document.querySelector('.felt').getBoundingClientRect();
  const cards = [...document.querySelectorAll('.trick-card .card')].map(
    (el) => el.getBoundingClientRect());
  const inside = cards.every((r) => r.left >= felt.left && r.right <= felt.right &&
                                    r.top >= felt.top && r.bottom <= felt.bottom);
  const overlaps = cards.some((a, i) => cards.some((b, j) => j > i &&
    a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom));
  return {count: cards.length, inside, overlaps};
}"""


def fit_problems(page: Page, selectors: dict[str, str]) -> list[str]:
    measured = page.evaluate(FIT, selectors)
    height, width = measured["viewport"]["height"], measured["viewport"]["width"]
    problems = []
    if measured["height"] > height:
        problems.append(f"the page scrolls: {measured['height']}px in {height}px")
    if measured["width"] > width:
        problems.append(f"the page scrolls sideways: {measured['width']}px in {width}px")
    for name, box in measured["boxes"].items():
        if box is None:
            problems.append(f"no {name}")
        elif box["top"] < 0 or box["bottom"] > height or box["left"] < 0 or box["right"] > width:
            problems.append(f"{name} outside the viewport: {box}")
    return problems


def a_table_of_five(phases: int) -> Event:
    """One table of five players, ``phases`` phases on from setup (1: study, 3: round 1)."""
    event = factories.seated_event(
        owner=ensure_organizer()[0],
        players=NAMES,
        tables=1,
        cards="screens",
        round_minutes=30,
        video_pattern="https://meet.example/{event}-{table}",
    )
    for _phase in range(phases):
        event = advance_phase(event=event)
    return event


def everyone_here(event: Event) -> Player:
    """Every other player's screen is open (no seat shows "gone"); returns the first
    player, whose seat is left free for the browsers that open it."""
    viewer = Player.objects.get(event=event, name=NAMES[0])
    for player in event.players.exclude(pk=viewer.pk):
        hold_seat(player=player, device=device_of(player))
    ScreenSeat.objects.filter(player=viewer).delete()
    return viewer


def play_cards(event: Event, count: int) -> dict[int, str]:
    """The next ``count`` cards of the trick, each its player's first; returns them."""
    deal = deal_at(event, 1)
    played = {}
    for _card in range(count):
        trick = game_of(deal).trick
        assert trick is not None
        assert trick.to_play is not None
        turn = Player.objects.get(pk=trick.to_play)
        card = game_of(deal).hands[turn.pk][0]
        play_card(player=turn, card=card, client_key=key(), device=device_of(turn))
        played[turn.pk] = card
    return played


def open_screen(new_context, live_server, player: Player, viewport: dict) -> Page:
    """The player's screen in a browser that is their device (its cookie): it holds their
    seat, and so shows their hand, at every size."""
    context = new_context(viewport=viewport)
    cookie = signed_phone_id(f"browser-device-{player.pk:06d}")
    context.add_cookies([{"name": "ft_phone", "value": cookie, "url": live_server.url}])
    page = context.new_page()
    page.goto(f"{live_server.url}/t/p/{player.token}/")
    expect(page.locator("#table-state")).to_be_visible(timeout=WAIT)
    return page


def size(viewport: dict) -> str:
    return f"{viewport['width']}x{viewport['height']}"


def test_in_study_the_rules_sit_beside_the_hand(live_server, new_context, tmp_path):
    event = a_table_of_five(1)
    viewer = everyone_here(event)
    shots = pictures("screen-table", tmp_path)
    for viewport in LAPTOPS:
        page = open_screen(new_context, live_server, viewer, viewport)
        expect(page.locator("#rules-title")).to_be_visible()
        snap(page, shots / f"study-{size(viewport)}.png")
        boxes = {"hand": ".hand-cards", "pad": "#pad", "rules' title": "#rules-title"}
        assert fit_problems(page, boxes) == [], viewport
        # Read in one script: a poll's swap between two reads would leave one without a box.
        beside = page.evaluate(
            "() => document.querySelector('.rules').getBoundingClientRect().left >="
            " document.querySelector('.hand-cards').getBoundingClientRect().right"
        )
        assert beside, f"the rules are not beside the hand at {size(viewport)}"


def test_in_play_the_whole_table_fits_a_laptop_and_the_phone_keeps_its_column(
    live_server, new_context, tmp_path
):
    event = a_table_of_five(3)
    shots = pictures("screen-table", tmp_path)
    # One trick taken, then three cards of the next down: a trick in progress.
    first = play_cards(event, 5)
    everyone_points(deal_at(event, 1), first[game_of(deal_at(event, 1)).trick.leader])
    play_cards(event, 3)
    other = Player.objects.get(event=event, name=NAMES[2])
    make_gesture(player=other, kind="confused", client_key=key(), device=device_of(other))
    viewer = everyone_here(event)
    for viewport in LAPTOPS:
        page = open_screen(new_context, live_server, viewer, viewport)
        snap(page, shots / f"play-{size(viewport)}.png")
        assert fit_problems(page, IN_PLAY) == [], viewport
        # Whose turn: one seat lit, with the place its card goes.
        expect(page.locator(".seat.seat-turn")).to_have_count(1)
        expect(page.locator(".trick-slot")).to_be_visible()
        # The seats sit around the felt, this screen's own at the bottom.
        seats = page.locator(".seat").evaluate_all(
            "(seats) => seats.map((s) => [s.classList.contains('seat-me'),"
            " s.getBoundingClientRect().top])"
        )
        assert max(seats, key=lambda seat: seat[1])[0], seats
    # The phone keeps its column: seats listed one under the other, then the cards in
    # play, the hand, the pad; nothing laid over another, nothing wider than the phone.
    phone = open_screen(new_context, live_server, viewer, PHONE)
    snap(phone, shots / "play-390.png", full_page=True)
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert phone.locator(".seat").first.evaluate("(el) => getComputedStyle(el).position") == (
        "static"
    )
    column = (".seats", ".trick-cards", ".hand-cards", "#pad")
    tops = phone.evaluate(
        "(column) => column.map((s) => document.querySelector(s).getBoundingClientRect().top)",
        column,
    )
    assert tops == sorted(tops), tops


def test_the_vote_looks_apart_from_the_gesture_and_comes_only_when_every_card_is_down(
    live_server, new_context, tmp_path
):
    event = a_table_of_five(3)
    shots = pictures("screen-table", tmp_path)
    play_cards(event, 4)
    viewer = everyone_here(event)
    page = open_screen(new_context, live_server, viewer, LAPTOP)
    # Four cards down: each carries the pointing gesture (a finger), and nothing to vote.
    cards = page.locator(".trick-card")
    expect(cards).to_have_count(4)
    gestures = page.locator(".trick-card .point-at.gesture-button use[href='#g-point']")
    expect(gestures).to_have_count(4)
    expect(page.locator(".vote-card, .ballot, #point-ask")).to_have_count(0)
    # The fifth card: the cards themselves become the vote, with a ballot box each, and
    # the gesture goes.
    last = play_cards(event, 1)
    expect(page.locator(".vote-card")).to_have_count(5, timeout=WAIT)
    expect(page.locator(".point-at")).to_have_count(0)
    expect(page.locator(".vote-card .ballot")).to_have_count(5)
    expect(page.locator("#point-ask")).to_be_visible()
    measured = page.evaluate(TRICK)
    snap(page, shots / "all-down-1366x768.png")
    assert measured == {"count": 5, "inside": True, "overlaps": False}
    assert fit_problems(page, IN_PLAY) == []
    # Others have voted: their seats show the card they vote for.
    deal = deal_at(event, 1)
    code = next(iter(last.values()))
    for pk in deal.seats[1:3]:
        voter = Player.objects.get(pk=pk)
        if voter.pk != viewer.pk:
            point_at_card(
                player=voter,
                trick=game_of(deal).trick.number,
                card=code,
                client_key=key(),
                device=device_of(voter),
            )
    expect(page.locator(".seat .seat-vote").first).to_be_visible(timeout=WAIT)
    # This screen's player votes: the card's ballot box is ticked.
    vote = page.locator(f"#point-{code}")
    vote.click()
    expect(vote).to_have_attribute("aria-pressed", "true", timeout=WAIT)
    expect(vote.locator(".ballot-ticked")).to_be_visible()
    # The seat shows it to the others (this screen shows it on the card it ticked).
    expect(page.locator(".seat-me .seat-vote")).to_have_count(1, timeout=WAIT)
    snap(page, shots / "vote-1366x768.png")
    for viewport in LAPTOPS[1:]:
        page.set_viewport_size(viewport)
        assert page.evaluate(TRICK) == measured, viewport
        assert fit_problems(page, IN_PLAY) == [], viewport
    # Another player's phone, at 390 px, sees the same votes.
    ScreenSeat.objects.filter(player_id=deal.seats[4]).delete()
    phone = open_screen(new_context, live_server, Player.objects.get(pk=deal.seats[4]), PHONE)
    snap(phone, shots / "vote-390.png", full_page=True)


def test_at_time_up_the_table_stays_as_it_stood(live_server, new_context, tmp_path):
    event = a_table_of_five(3)
    shots = pictures("screen-table", tmp_path)
    first = play_cards(event, 5)
    everyone_points(deal_at(event, 1), first[game_of(deal_at(event, 1)).trick.leader])
    played = play_cards(event, 2)
    viewer = everyone_here(event)
    event.end_clock_now()
    event.save_and_bump(["clock_ends_at", "clock_paused_remaining"])
    for viewport in (LAPTOP, PHONE):
        page = open_screen(new_context, live_server, viewer, viewport)
        expect(page.get_by_text("Time is up: the game in play counts")).to_be_visible()
        # The trick in progress and the tricks so far stay, greyed; nothing can be pressed.
        for code in played.values():
            expect(page.locator(f'.trick-card[data-card="{code}"]')).to_be_visible()
        expect(page.locator(".seat").filter(has_text="1 trick")).to_have_count(1)
        expect(page.locator("#live.table-closed .screen-table.table-closed")).to_have_count(1)
        expect(page.locator(".hand-closed .card").first).to_be_visible()
        expect(page.locator("#screen-play button, #pad, .gestures")).to_have_count(0)
        expect(page.locator(".table-side .pad-view")).to_be_visible()
        snap(page, shots / f"time-up-{size(viewport)}.png", full_page=True)
        if viewport is LAPTOP:
            assert fit_problems(page, {"cards in play": ".felt", "hand": ".hand-closed"}) == []
