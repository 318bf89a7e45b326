"""What a player's screen does with the live channel's messages (static/js/screen.js), in
a real browser, with the channel played by the test: a stand-in EventSource that the test
tells to deliver a key (the screen fetches its live part) or a table's state (rendered by
tables.views.screen_pushed.pushed_table_state, as the channel renders it). The page is kept
"hidden", so poll.js never polls: whatever the screen shows comes from these messages.

- Every message is followed, however many fetches came before (a fetch that replaced the
  live part held back every message after it), and one that lands as a fetch's answer
  swaps in, before htmx has made the new live part listen, is followed after it.
- An action stored with an empty answer (the channel brings its change) whose table's
  version is not shown within a few seconds (a push lost) fetches the live part itself,
  even when another message (an older state) came meanwhile.
- A live part older than the state the channel pushed meanwhile (a fetch answered before
  a change whose push came first) never takes the table back: the screen asks again.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tables.views.screen_pushed import pushed_table_state
from tables.writes.screen_play import game_of, play_card
from tests import factories
from tests.screen_factories import deal_at, device_of, key, screen_event
from tournament.models import Player
from tournament.writes.signin import ensure_organizer

pytestmark = pytest.mark.django_db(transaction=True)

WAIT = 5_000  # ms; nothing polls, so a screen that misses a message never catches up

# The channel played by the test: window.channel.key() and window.channel.state(html).
FAKE_CHANNEL = """
Object.defineProperty(document, "visibilityState", { get: () => "hidden" });
window.EventSource = class {
  constructor(url) {
    this.listeners = {};
    window.channel = {
      key: () => this.onmessage && this.onmessage({ data: "0.0" }),
      state: (html) => this.listeners.table({ data: html }),
    };
    // Heard beating, the stream counts as open (data-pushed).
    const beat = () => this.listeners.beat && this.listeners.beat({ data: "1" });
    setTimeout(beat, 0);
    setInterval(beat, 1000);
  }
  addEventListener(type, listener) { this.listeners[type] = listener; }
  close() {}
};
"""


def play_next(event) -> str:
    """The player whose turn it is at table 1 plays their first card (a write, as from
    their own screen); the card."""
    deal = deal_at(event, 1)
    game = game_of(deal)
    assert game.trick is not None
    assert game.trick.to_play is not None
    player = Player.objects.get(pk=game.trick.to_play)
    card = game.hands[player.pk][0]
    play_card(player=player, card=card, client_key=key(), device=device_of(player))
    return card


@pytest.fixture
def screen(live_server, new_context):
    organizer = ensure_organizer()[0]
    event = factories.start_rounds(screen_event(owner=organizer, players=4, tables=1))
    # Who plays last in the first trick: the cards the tests play are the others'.
    trick = game_of(deal_at(event, 1)).trick
    assert trick is not None
    watcher = Player.objects.get(pk=trick.players[-1])
    context = new_context()
    context.add_init_script(FAKE_CHANNEL)
    page = context.new_page()
    page.goto(f"{live_server.url}/t/p/{watcher.token}/")
    expect(page.locator("body[data-pushed]")).to_have_count(1)
    return event, page


def shows(page: Page, card: str):
    return page.locator(f'.trick-card[data-card="{card}"]')


def test_every_key_is_followed_after_a_fetch_replaced_the_live_part(screen):
    event, page = screen
    for _turn in range(3):
        card = play_next(event)
        page.evaluate("window.channel.key()")
        expect(shows(page, card)).to_be_visible(timeout=WAIT)


def test_a_message_that_lands_as_a_fetch_swaps_in_is_followed(screen):
    event, page = screen
    first = play_next(event)
    live_url = page.locator("#live").get_attribute("hx-get") or ""
    later = []

    def answer_after_the_next_card(route) -> None:
        response = route.fetch()  # the live part with the first card only
        later.append(play_next(event))  # meanwhile, the next card is played
        route.fulfill(response=response)

    page.route(f"**{live_url}", answer_after_the_next_card, times=1)
    # The channel tells of that card as the answer swaps in: before htmx has made the
    # new live part listen (at its settle, 20 ms later).
    page.evaluate(
        """() => document.addEventListener("htmx:afterSwap", () => window.channel.key(),
          { once: true })"""
    )
    page.evaluate("window.channel.key()")
    expect(shows(page, first)).to_be_visible(timeout=WAIT)
    assert later
    expect(shows(page, later[0])).to_be_visible(timeout=WAIT)


def test_a_live_part_older_than_the_pushed_state_never_takes_the_table_back(screen):
    event, page = screen
    live_url = page.locator("#live").get_attribute("hx-get") or ""
    # The live part as it stands, before the next card.
    before = page.request.get(page.url.split("/t/")[0] + live_url).text()
    card = play_next(event)
    version, state = pushed_table_state(deal_at(event, 1).table_id, "en") or (0, "")
    page.evaluate("(html) => window.channel.state(html)", state)
    expect(shows(page, card)).to_be_visible(timeout=WAIT)
    # The next fetch is answered with the live part from before the card, as a fetch
    # answered just before the card and delivered after its push would be.
    page.route(
        f"**{live_url}",
        lambda route: route.fulfill(status=200, content_type="text/html", body=before),
        times=1,
    )
    page.evaluate(
        """() => { window.liveAnswers = 0;
          document.addEventListener("htmx:afterRequest", () => { window.liveAnswers += 1; }); }"""
    )
    page.evaluate("window.channel.key()")
    page.wait_for_function("() => window.liveAnswers >= 1")
    expect(shows(page, card)).to_be_visible()
    expect(page.locator("#table-state")).to_have_attribute("data-version", str(version))
    page.wait_for_function("() => window.liveAnswers >= 2")  # it asked again, for the table now
    expect(shows(page, card)).to_be_visible()


def test_an_action_whose_push_never_comes_fetches_the_live_part_itself(screen):
    event, page = screen
    me = page.locator("#live").get_attribute("data-me")
    while (trick := game_of(deal_at(event, 1)).trick) and str(trick.to_play) != me:
        play_next(event)  # the others play, up to this screen's turn
    page.evaluate("window.channel.key()")
    expect(page.locator(".your-turn")).to_be_visible(timeout=WAIT)
    card = page.locator(".hand-cards button.card").first
    code = card.get_attribute("value")
    card.click()  # stored; the channel that should bring it says nothing
    expect(shows(page, code)).to_be_visible(timeout=WAIT)


def test_an_action_whose_push_is_lost_behind_an_older_state_still_fetches_its_card(screen):
    event, page = screen
    me = page.locator("#live").get_attribute("data-me")
    while (trick := game_of(deal_at(event, 1)).trick) and str(trick.to_play) != me:
        play_next(event)
    page.evaluate("window.channel.key()")
    expect(page.locator(".your-turn")).to_be_visible(timeout=WAIT)
    _version, older = pushed_table_state(deal_at(event, 1).table_id, "en") or (0, "")
    card = page.locator(".hand-cards button.card").first
    code = card.get_attribute("value")
    with page.expect_response(lambda answer: answer.request.method == "POST") as answered:
        card.click()
    assert answered.value.headers.get("x-table-version")
    # A message comes, but it is the table as it stood before the card: the card's own
    # push is lost. The screen does not take that message for it.
    page.evaluate("(html) => window.channel.state(html)", older)
    expect(shows(page, code)).to_be_visible(timeout=WAIT)
