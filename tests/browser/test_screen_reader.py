"""A player's screen at a "cards on screens" table, as a screen reader and a keyboard use it
(static/js/screen.js: tableNews, restoreFocus), with the live channel open ("live") and
with it blocked by a proxy that holds its events, so that the screens poll ("polled").

Terms:
    heard     each new text of the page's announcement region (#announce), in order, as a
              MutationObserver (an init script) records it: what a screen reader says.
    focus     document.activeElement after each change of the page, recorded the same way
              once the player has put the focus on the table: "body" is the focus lost.

Besides the table: the pad's keyboard pen says "Pen down" and "Pen up" once each change
(static/js/pad.js), the video link's name says it opens in a new tab, and the name picker
says how many names match rather than every name (static/js/pick.js, #names-count).
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from tables.models import Deal
from tables.writes.screen_play import game_of
from tests import factories
from tests.browser.channel_server import channel_server
from tests.browser.test_phones import PLAYERS
from tests.screen_factories import deal_at, scoring_event, screen_event, short_hands
from tournament.models import Player
from tournament.writes.rounds import advance_phase
from tournament.writes.signin import ensure_organizer

pytestmark = pytest.mark.django_db(transaction=True)

WAIT = 8_000  # ms: three screens on two shared cores, polled at the room's pace

RECORD = """
window.__heard = [];
window.__focus = [];
window.__watch = false;
document.addEventListener("DOMContentLoaded", function () {
  var announce = document.getElementById("announce");
  new MutationObserver(function () {
    if (announce.textContent) window.__heard.push(announce.textContent);
  }).observe(announce, { childList: true, characterData: true, subtree: true });
  new MutationObserver(function () {
    if (!window.__watch) return;
    var el = document.activeElement;
    window.__focus.push(!el || el === document.body ? "body" : el.id || el.tagName);
  }).observe(document.body, { childList: true, subtree: true, attributes: true });
});
"""


@pytest.fixture(params=["live", "polled"])
def table_of_three(request, new_context, settings, monkeypatch):
    """Round 1's deal at a table of three with three cards each (the first trick taken
    leaves a game in play), and each player's screen by player id."""
    yield from screens_at_one_table(request.param, new_context, settings, monkeypatch)


@pytest.fixture(params=["live", "polled"])
def scoring_table_of_three(request, new_context, settings, monkeypatch):
    """The same at an event with a scoring clause: a game's last trick taken, its players
    point at who won it, and only then is the next game dealt."""
    yield from screens_at_one_table(
        request.param, new_context, settings, monkeypatch, make_event=scoring_event
    )


def screens_at_one_table(path, new_context, settings, monkeypatch, *, make_event=screen_event):
    settings.ALLOWED_HOSTS = ["localhost"]
    short_hands(monkeypatch, cards=3)
    event = make_event(owner=ensure_organizer()[0], players=3, tables=1, round_minutes=30)
    for _step in range(3):  # study, practice, round 1
        event = advance_phase(event=event)
    held = path == "polled"
    with channel_server(hold_streams=held) as server:
        pages: dict[int, Page] = {}
        for player in event.players.all():
            page = new_context().new_page()
            page.add_init_script(RECORD)
            with page.expect_request(lambda asked: asked.url.endswith("/stream/")):
                page.goto(f"{server.url}/t/p/{player.token}/")
            if not held:
                expect(page.locator("body[data-pushed]")).to_have_count(1, timeout=WAIT)
            pages[player.pk] = page
        yield deal_at(event, 1), pages
        if held:  # never taken for open: the screens polled all along
            for page in pages.values():
                expect(page.locator("body[data-pushed]")).to_have_count(0)
        for page in pages.values():
            page.context.close()


def heard(page: Page) -> list[str]:
    return page.evaluate("window.__heard")


def name_of(player: int) -> str:
    return Player.objects.get(pk=player).name


def to_play(deal) -> int:
    trick = game_of(deal).trick
    assert trick is not None
    assert trick.to_play is not None
    return trick.to_play


def play_by_keyboard(page: Page, deal) -> str:
    """The player on turn puts the focus on the first card of their hand and presses Enter."""
    trick = game_of(deal).trick
    assert trick is not None
    shown = f'#table-state[data-deal="{deal.pk}"][data-trick="{trick.number}"]'
    expect(page.locator(shown)).to_be_visible(timeout=WAIT)
    expect(page.locator(".your-turn")).to_be_visible(timeout=WAIT)
    card = page.locator(".hand-cards button.card").first
    code = card.get_attribute("value") or ""
    card.focus()
    page.keyboard.press("Enter")
    expect(page.locator(f'.trick-card[data-card="{code}"]')).to_be_visible(timeout=WAIT)
    return code


def test_a_screen_reader_hears_each_change_of_the_table_once_in_order(table_of_three):
    deal, pages = table_of_three
    watcher = to_play(deal)  # the leader: "Your turn" is on the page it loaded, unsaid
    page = pages[watcher]
    mine = play_by_keyboard(page, deal)
    second = to_play(deal)
    second_card = play_by_keyboard(pages[second], deal)
    label = page.locator(f'.trick-card[data-card="{second_card}"] .card > .visually-hidden')
    expect(label).to_have_count(1, timeout=WAIT)
    card_name = (label.text_content() or "").strip()
    played = f"{name_of(second)} played {card_name}"
    expect(page.locator("#announce")).to_contain_text(played, timeout=WAIT)
    play_by_keyboard(pages[to_play(deal)], deal)
    expect(page.locator("#announce")).to_contain_text("Every card is down", timeout=WAIT)
    # Two players point at different cards, then the table agrees on the watcher's.
    third = next(player for player in deal.seats if player not in (watcher, second))
    pages[watcher].locator(f"#point-{mine}").click()
    expect(pages[second].locator(f"#point-{second_card}")).to_be_visible(timeout=WAIT)
    pages[second].locator(f"#point-{second_card}").click()
    expect(page.locator("#announce")).to_contain_text(
        "The table points at different cards", timeout=WAIT
    )
    # The trick's cards read "played by …; pointed at by …", not the names run together.
    mine_read = page.locator(f'.trick-card[data-card="{mine}"]')
    expect(mine_read).to_contain_text(f"played by {name_of(watcher)}")
    expect(mine_read).to_contain_text(f"; pointed at by {name_of(watcher)}")
    pages[second].locator(f"#point-{mine}").click()
    expect(pages[third].locator(f"#point-{mine}")).to_be_visible(timeout=WAIT)
    pages[third].locator(f"#point-{mine}").click()
    expect(page.locator("#announce")).to_contain_text("Your turn: play a card.", timeout=WAIT)
    said = " | ".join(heard(page))
    expected = [
        played,
        "Every card is down",
        "The table points at different cards",
        f"Trick to {name_of(watcher)}",
        "Your turn: play a card.",
    ]
    places = [said.find(words) for words in expected]
    assert all(place >= 0 for place in places), said
    assert places == sorted(places), said
    assert all(said.count(words) == 1 for words in expected), said


def play_and_take(pages: dict[int, Page], deal, *, taken_by: int) -> int:
    """Every player plays a card by keyboard, then all point at the card of the trick's
    ``taken_by``-th player (0: its leader), each once the last one's vote is stored;
    returns the taker."""
    trick = game_of(deal).trick
    assert trick is not None
    while trick is not None and trick.to_play is not None:
        play_by_keyboard(pages[trick.to_play], deal)
        trick = game_of(deal).trick
    assert trick is not None
    taker, card = trick.plays[taken_by]
    for player in deal.seats:
        vote = pages[player].locator(f"#point-{card}")
        expect(vote).to_be_visible(timeout=WAIT)
        vote.click()
        pages[player].wait_for_function(
            "() => window.ftScreen.pending().length === 0", timeout=WAIT
        )
    return taker


def test_the_last_trick_of_a_game_is_heard_once_with_the_next_game(table_of_three):
    """The last trick's taking deals the next game, whose state no longer counts it: it
    names that trick's taker, and each screen that showed the trick says it once."""
    deal, pages = table_of_three
    takers = [play_and_take(pages, deal, taken_by=place) for place in (0, 0, 1)]
    assert takers[2] != takers[1]  # the last "Trick to" is its own, not the one before
    after = Deal.objects.get(table=deal.table, ended_at__isnull=True)
    assert after.number == deal.number + 1
    for page in pages.values():
        expect(page.locator(f'#table-state[data-deal="{after.pk}"]')).to_have_count(1, timeout=WAIT)
        expect(page.locator("#announce")).to_contain_text(
            f"Trick to {name_of(takers[2])}", timeout=WAIT
        )
    # The next game's first card: every screen hears it, and the last trick no more.
    leader = to_play(after)
    first = play_by_keyboard(pages[leader], after)
    for player, page in pages.items():
        if player != leader:
            expect(page.locator("#announce")).to_contain_text(
                f"{name_of(leader)} played", timeout=WAIT
            )
        expect(page.locator(f'.trick-card[data-card="{first}"]')).to_have_count(1, timeout=WAIT)
        heard_tricks(page, takers)
    # A screen loaded on the new game has nothing of the last one to say.
    page = pages[takers[0]]
    page.reload()
    play_by_keyboard(pages[to_play(after)], after)
    expect(page.locator(".trick-card")).to_have_count(2, timeout=WAIT)
    assert not any("Trick to" in words for words in heard(page)), heard(page)


def heard_tricks(page: Page, takers: list[int]) -> None:
    """The page heard "Trick to …" once for each trick, in order, and no more."""
    said = [words for words in heard(page) if "Trick to" in words]
    assert len(said) == len(takers), said
    assert all(
        f"Trick to {name_of(taker)}" in words for taker, words in zip(takers, said, strict=True)
    ), said


def test_the_last_trick_before_the_players_point_at_the_winner_is_heard_once(
    scoring_table_of_three,
):
    """At an event with a scoring clause the game stays in play while its players point at
    who won it: its last trick is counted there, and the next game says it no more."""
    deal, pages = scoring_table_of_three
    takers = [play_and_take(pages, deal, taken_by=place) for place in (0, 0, 1)]
    for page in pages.values():
        expect(page.locator("form.claim")).to_have_count(1, timeout=WAIT)
        expect(page.locator("#announce")).to_contain_text(
            f"Trick to {name_of(takers[2])}", timeout=WAIT
        )
    for page in pages.values():
        choice = page.locator(f"#claim-{takers[0]}")
        expect(choice).to_be_visible(timeout=WAIT)
        choice.click()
        page.wait_for_function("() => window.ftScreen.pending().length === 0", timeout=WAIT)
    after = Deal.objects.get(table=deal.table, ended_at__isnull=True)
    for page in pages.values():
        expect(page.locator(f'#table-state[data-deal="{after.pk}"]')).to_have_count(1, timeout=WAIT)
    first = play_by_keyboard(pages[to_play(after)], after)
    for page in pages.values():
        expect(page.locator(f'.trick-card[data-card="{first}"]')).to_have_count(1, timeout=WAIT)
        heard_tricks(page, takers)


def test_a_refusal_is_said_once_and_goes_at_the_next_change(table_of_three):
    deal, pages = table_of_three
    leader = to_play(deal)
    waiting = next(player for player in deal.seats if player != leader)
    page = pages[waiting]
    page.locator(".hand-cards button.card").first.focus()
    page.keyboard.press("Enter")  # not this player's turn
    news = page.locator("#live [data-news]")
    expect(news).to_contain_text("Wait for your turn", timeout=WAIT)
    expect(page.locator("#live [role=alert]")).to_have_count(0)  # read once: #announce
    expect(page.locator("#announce")).to_contain_text("Wait for your turn")
    play_by_keyboard(pages[leader], deal)
    expect(news).to_have_count(0, timeout=WAIT)
    assert sum("Wait for your turn" in words for words in heard(page)) == 1


def test_a_trick_and_a_gesture_by_keyboard_never_leave_the_focus_on_the_body(table_of_three):
    deal, pages = table_of_three
    for page in pages.values():
        page.locator("#hand-title").evaluate("el => el.setAttribute('tabindex', '-1')")
        page.locator("#hand-title").focus()
        page.evaluate("window.__watch = true")
    leader = to_play(deal)
    first = play_by_keyboard(pages[leader], deal)
    # The card played leaves: the focus goes to the card beside it, not to the top.
    expect(pages[leader].locator(".hand-cards button.card").first).to_be_focused(timeout=WAIT)
    # The leader's finger on the card in play, by Enter: a gesture, kept in focus while
    # the next cards arrive and when its card becomes the vote.
    finger = pages[leader].locator(f"#gesture-point-{first}")
    finger.focus()
    pages[leader].keyboard.press("Enter")
    pages[leader].wait_for_function("() => window.ftScreen.pending().length === 0", timeout=WAIT)
    expect(finger).to_be_focused()
    while (trick := game_of(deal).trick) is not None and trick.to_play is not None:
        play_by_keyboard(pages[trick.to_play], deal)
    expect(pages[leader].locator(f"#point-{first}")).to_be_focused(timeout=WAIT)
    for player in deal.seats:
        vote = pages[player].locator(f"#point-{first}")
        expect(vote).to_be_visible(timeout=WAIT)
        vote.focus()
        pages[player].keyboard.press("Enter")
    # The trick is taken by the leader's card: the leader leads again, from the hand.
    expect(pages[leader].locator(".your-turn")).to_be_visible(timeout=WAIT)
    expect(pages[leader].locator(".hand-cards button.card").first).to_be_focused(timeout=WAIT)
    for page in pages.values():
        expect(page.locator(".last-taken")).to_be_visible(timeout=WAIT)
        focus = page.evaluate("window.__focus")
        assert focus  # the table changed under the focus
        assert "body" not in focus, focus
        assert page.evaluate("document.activeElement !== document.body")


def test_the_pen_is_heard_down_and_up_once_each_change(live_server, new_context):
    event = factories.start_rounds(screen_event(owner=ensure_organizer()[0], players=8, tables=2))
    player = Player.objects.get(pk=deal_at(event, 1).seats[0])
    page = new_context().new_page()
    page.add_init_script(RECORD)
    page.goto(f"{live_server.url}/t/p/{player.token}/")
    page.locator("#pad").focus()
    page.keyboard.press("Space")
    expect(page.locator("#announce")).to_have_text("Pen down")
    for key in ["ArrowRight"] * 3:
        page.keyboard.press(key)
    page.keyboard.press("Space")
    expect(page.locator("#announce")).to_have_text("Pen up")
    assert [words for words in heard(page) if words.startswith("Pen")] == ["Pen down", "Pen up"]


def test_the_video_link_says_it_opens_in_a_new_tab(live_server, new_context):
    event = factories.start_rounds(screen_event(owner=ensure_organizer()[0], players=8, tables=2))
    deal = deal_at(event, 1)
    deal.table.video_link = "https://meet.example.org/table-1"
    deal.table.save(update_fields=["video_link"])
    player = Player.objects.get(pk=deal.seats[0])
    page = new_context().new_page()
    page.goto(f"{live_server.url}/t/p/{player.token}/")
    link = page.get_by_role("link", name="Join your table's video (opens in a new tab)")
    expect(link).to_be_visible()


def test_the_name_picker_says_how_many_names_match(live_server, new_context):
    event = factories.seated_event(owner=ensure_organizer()[0], players=PLAYERS, tables=2)
    page = new_context().new_page()
    page.goto(live_server.url + reverse("phone:player_home", args=[event.players_token]))
    expect(page.locator("#names button")).to_have_count(len(PLAYERS))
    page.get_by_label("Your name").press_sequentially("ha")
    expect(page.locator("#names-count")).to_have_text("Names matching: 3")
    page.get_by_label("Your name").press_sequentially("k")
    expect(page.locator("#names-count")).to_have_text("Names matching: 1")
    # The names themselves are no live region: a reader hears the count, not each name.
    expect(page.locator("#names [aria-live], .names-live[aria-live]")).to_have_count(0)
