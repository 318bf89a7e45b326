"""Real-browser harness: Playwright driving Debian's Chromium against pytest-django's live server.

Never `playwright install` (it downloads a browser, which cannot work offline); the
Makefile installs Debian's chromium where it is missing. Without it the tests are skipped
with instructions, except under CI=true, where a missing browser fails the run.

Under pytest-xdist each worker is its own process with its own Chromium, live server (on
a port of its own) and test database; pictures (SCREENSHOTS=1) go to files named per test.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from pathlib import Path

import pytest

from tests.tools import missing

# Playwright's sync API runs an event loop in this thread; the Django ORM calls the tests
# make to set up data are still synchronous and safe here.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
# Pictures of the screens are written only for a person to look at (`make screenshots`);
# the checks beside them run either way.
SCREENSHOTS = bool(os.environ.get("SCREENSHOTS"))
# The live server answers each request in a thread of this name (socketserver's).
REQUEST_THREAD = "(process_request_thread)"
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}
PROJECTOR = {"width": 1920, "height": 1080}


@pytest.fixture(scope="session")
def browser():
    if not CHROMIUM.exists():
        message = (
            f"{CHROMIUM} is missing, so the browser tests cannot run. "
            "Install it with `sudo apt-get install -y chromium` (make test does this as root)."
        )
        missing(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


@pytest.fixture
def new_context(browser):
    """Open separate browser contexts (separate phones), closed after the test."""
    contexts = []

    def open_context(viewport: dict | None = None, **kwargs):
        context = browser.new_context(viewport=viewport or LAPTOP, **kwargs)
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context

    yield open_context
    # Polling pages keep asking the live server; stop them before the test database is
    # flushed, and wait for the requests the server is still answering. Otherwise the
    # flush can meet SQLite's shared-cache table lock ("database table is locked").
    for context in contexts:
        for open_page in context.pages:
            with contextlib.suppress(Exception):
                open_page.goto("about:blank", timeout=2_000)
        context.close()
    if contexts:
        requests_answered()


def requests_answered(timeout: float = 10) -> None:
    """Wait until the live server has answered every request it took (its browsers are
    closed, so no new one comes)."""
    deadline = time.monotonic() + timeout
    for thread in threading.enumerate():
        if thread.name.endswith(REQUEST_THREAD):
            thread.join(max(0.0, deadline - time.monotonic()))


@pytest.fixture
def page(new_context):
    return new_context().new_page()


def pictures(area: str, tmp_path: Path) -> Path:
    """Where a test's pictures and printed files go: ./screenshots/<area>/ (git ignores
    it) with SCREENSHOTS=1, else the test's own temporary folder."""
    if not SCREENSHOTS:
        return tmp_path
    folder = Path(__file__).resolve().parents[2] / "screenshots" / area
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def snap(target, path: Path, **options) -> None:
    """A picture of a page or an element, taken with SCREENSHOTS=1 only."""
    if SCREENSHOTS:
        target.screenshot(path=str(path), **options)


def count_htmx_requests(page, verb: str | None = None):
    """Count, from now on, the requests htmx sends from ``page`` (or only its ``verb``'s);
    returns a function that reads the count. htmx fires htmx:beforeRequest inside the event
    that sends (a tap, a poll's tick), so once that event has run the count is exact: no
    waiting to see whether a request goes out."""
    page.evaluate(
        """(verb) => {
          window.htmxRequestsSent = 0;
          document.addEventListener("htmx:beforeRequest", (event) => {
            if (!verb || event.detail.requestConfig.verb === verb) window.htmxRequestsSent += 1;
          });
        }""",
        verb,
    )
    return lambda: page.evaluate("window.htmxRequestsSent")


def clock_ticked(page) -> None:
    """Wait until static/js/clock.js has counted every clock on the page once."""
    page.wait_for_function(
        "() => [...document.querySelectorAll('[data-clock-seconds]')].every(el => el._clockStart)"
    )


def sign_in(page, live_server, user) -> None:
    """Sign in as an organizer does: open the one-time link, press its button, and wait
    for the console (the link's page itself signs nobody in)."""
    from playwright.sync_api import expect

    from tournament.writes.signin import sign_in_path

    page.goto(live_server.url + sign_in_path(user))
    page.get_by_role("button", name="Sign in", exact=True).click()
    expect(page.get_by_role("button", name="Sign out")).to_be_visible()
