"""The outbox itself (static/js/outbox.js) in a real browser, apart from the pages that use
it: each action is kept with its own key before it is sent, sent again with that key after
a lost answer, a reload, no connection or a busy server (after its Retry-After), forgotten
once stored, and a refusal is told to the page and never sent again.

A page of its own (a made-up origin routed by Playwright) loads outbox.js alone, and the
"server" is a route here that answers each post as the test plans: so nothing but the
outbox is tested, and every answer is exactly the one planned. The tests wait for what
they expect (the page's record of answers, the posts seen), never for a set time.
"""

from __future__ import annotations

import time
from pathlib import Path
from urllib.parse import parse_qs

import pytest
from playwright.sync_api import Route

ORIGIN = "http://outbox.test"
SCRIPT = Path(__file__).resolve().parents[2] / "static" / "js" / "outbox.js"
PAGE = '<!doctype html><html><body><script src="/outbox.js"></script></body></html>'
# The page's side: an outbox as screen.js makes one, retrying quickly; what it heard.
MAKE = """() => {
  window.heard = [];
  window.box = window.ftOutbox.create({
    name: "test-outbox",
    keyField: "key",
    retryMs: 100,
    retryMaxMs: 200,
    stored: (response) => response.ok && Boolean(response.headers.get("X-Stored")),
    refused: (response) => response.status >= 400 && response.status < 500
      && Boolean(response.headers.get("X-Refused")),
    answered: (action, answer) => window.heard.push([action.fields.card, answer.kind]),
  });
  window.box.retryNow();  // as a page does at its load
}"""
WAIT_MS = 10_000


class Server:
    """The route answering the outbox's posts: each one recorded (when, its fields), then
    answered by the next planned reply (``stored`` when none is left)."""

    def __init__(self) -> None:
        self.posts: list[tuple[float, dict[str, str]]] = []
        self.plan: list[str] = []
        # Playwright's offline mode leaves routed requests alone: while this is set, a
        # post fails as it does without a connection, and reaches no server.
        self.offline = False

    def __call__(self, route: Route) -> None:
        request = route.request
        path = request.url.removeprefix(ORIGIN)
        if path == "/":
            route.fulfill(body=PAGE, content_type="text/html")
        elif path == "/outbox.js":
            route.fulfill(body=SCRIPT.read_text(encoding="utf-8"), content_type="text/javascript")
        elif path == "/act/" and request.method == "POST" and self.offline:
            route.abort("internetdisconnected")
        elif path == "/act/" and request.method == "POST":
            fields = {k: v[0] for k, v in parse_qs(request.post_data or "").items()}
            self.posts.append((time.monotonic(), fields))
            self.reply(route, self.plan.pop(0) if self.plan else "stored")
        else:
            route.fulfill(status=404, body="")

    @staticmethod
    def reply(route: Route, planned: str) -> None:
        if planned == "lost":  # stored by the server, the answer never arrives
            route.abort()
        elif planned == "error":
            route.fulfill(status=500, body="<h1>Server Error (500)</h1>")
        elif planned == "busy":
            headers = {"X-Action-Busy": "1", "Retry-After": "1"}
            route.fulfill(status=503, headers=headers, body="busy")
        elif planned == "refused":
            route.fulfill(status=409, headers={"X-Refused": "1"}, body="<p>No.</p>")
        else:
            route.fulfill(status=204, headers={"X-Stored": "1"}, body="")

    def keys(self, card: str) -> list[str]:
        return [fields["key"] for _at, fields in self.posts if fields.get("card") == card]


@pytest.fixture
def server():
    return Server()


@pytest.fixture
def outbox_page(new_context, server):
    context = new_context()
    context.route(f"{ORIGIN}/**", server)
    page = context.new_page()
    page.goto(f"{ORIGIN}/")
    page.evaluate(MAKE)
    return page


def tap(page, card: str) -> str:
    """One action, as a tap makes it: its key, kept before it is sent."""
    return page.evaluate(
        """(card) => {
          const action = window.box.add({ url: "/act/", fields: { card: card, empty: "" } });
          window.box.retryNow();
          return action.key;
        }""",
        card,
    )


def heard(page, *expected) -> None:
    """Wait until the page was told these answers, in this order."""
    page.wait_for_function(
        "(expected) => JSON.stringify(window.heard) === JSON.stringify(expected)",
        arg=[list(pair) for pair in expected],
        timeout=WAIT_MS,
    )


def kept(page) -> list[dict]:
    return page.evaluate("JSON.parse(localStorage.getItem('test-outbox') || '[]')")


def test_an_action_is_kept_with_its_key_before_it_is_sent_and_forgotten_once_stored(
    outbox_page, server
):
    server.plan = ["error"]
    key = tap(outbox_page, "AS")
    heard(outbox_page, ("AS", "fault"), ("AS", "stored"))
    assert server.keys("AS") == [key, key]
    assert len(key) == 22  # 128 bits, URL-safe, as the server's own keys
    assert server.posts[0][1] == {"card": "AS", "key": key}  # empty fields are not sent
    assert kept(outbox_page) == []


def test_an_answer_lost_after_the_server_stored_it_is_sent_again_with_its_key(outbox_page, server):
    server.plan = ["lost"]
    key = tap(outbox_page, "KH")
    heard(outbox_page, ("KH", "fault"), ("KH", "stored"))
    assert server.keys("KH") == [key, key]  # the server stores a key once


def test_an_action_waiting_across_a_reload_is_sent_with_its_key(outbox_page, server):
    server.plan = ["error"] * 1000  # the server is away until the page is reloaded
    key = tap(outbox_page, "QC")
    outbox_page.wait_for_function("window.heard.length > 0", timeout=WAIT_MS)
    assert [action["key"] for action in kept(outbox_page)] == [key]
    # Back only once the page is reloaded: a retry of the old page answered "stored" just
    # before the reload would leave the new page nothing to send.
    outbox_page.reload()
    server.plan = []
    outbox_page.evaluate(MAKE)
    heard(outbox_page, ("QC", "stored"))
    assert set(server.keys("QC")) == {key}
    assert kept(outbox_page) == []


def test_an_action_tapped_offline_is_sent_once_the_connection_is_back(outbox_page, server):
    outbox_page.context.set_offline(True)
    server.offline = True
    key = tap(outbox_page, "7D")
    outbox_page.wait_for_function("window.heard.length > 0", timeout=WAIT_MS)
    assert outbox_page.evaluate("window.heard[0]") == ["7D", "fault"]
    assert [action["key"] for action in kept(outbox_page)] == [key]
    outbox_page.context.set_offline(False)
    server.offline = False
    outbox_page.wait_for_function(
        "window.heard.some(([card, kind]) => card === '7D' && kind === 'stored')", timeout=WAIT_MS
    )
    assert set(server.keys("7D")) == {key}
    assert kept(outbox_page) == []


def test_a_busy_server_gets_the_action_again_after_its_retry_after(outbox_page, server):
    server.plan = ["busy"]
    key = tap(outbox_page, "2S")
    heard(outbox_page, ("2S", "busy"), ("2S", "stored"))
    (first, _), (second, _) = server.posts
    assert server.keys("2S") == [key, key]
    assert second - first >= 0.9  # Retry-After: 1, not the fault's quicker retry


def test_a_refusal_is_told_and_never_sent_again_and_the_next_action_goes_after_it(
    outbox_page, server
):
    server.plan = ["error", "refused"]
    refused_key = tap(outbox_page, "9H")
    next_key = tap(outbox_page, "TC")  # tapped while the first waits: it goes behind it
    heard(outbox_page, ("9H", "fault"), ("9H", "refused"), ("TC", "stored"))
    # One at a time, oldest first: had the refused one been kept, it would have gone again
    # before the next one.
    assert [fields["key"] for _at, fields in server.posts] == [refused_key, refused_key, next_key]
    assert kept(outbox_page) == []


def test_without_storage_the_page_still_sends_its_actions(new_context, server):
    context = new_context()
    # Private mode in some browsers, or a full storage: nothing is kept.
    context.add_init_script("Storage.prototype.setItem = () => { throw new Error('full'); };")
    context.route(f"{ORIGIN}/**", server)
    page = context.new_page()
    page.goto(f"{ORIGIN}/")
    page.evaluate(MAKE)
    server.plan = ["error"]
    key = tap(page, "JD")
    heard(page, ("JD", "fault"), ("JD", "stored"))
    assert server.keys("JD") == [key, key]
