"""Real-browser harness: Playwright driving Debian's Chromium against pytest-django's live server.

Never `playwright install` (it downloads a browser, which cannot work offline); the
Makefile installs Debian's chromium where it is missing. Without it the tests are skipped
with instructions, except under CI=true, where a missing browser fails the run.
"""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path

import pytest

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
SERVER_SETTLE_SECONDS = 0.5
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}
PROJECTOR = {"width": 1920, "height": 1080}


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser():
    if not CHROMIUM.exists():
        message = (
            f"{CHROMIUM} is missing, so the browser tests cannot run. "
            "Install it with `sudo apt-get install -y chromium` (make test does this as root)."
        )
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
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
    # flushed, and give a request the server is still answering time to finish. Otherwise
    # the flush can meet SQLite's shared-cache table lock ("database table is locked").
    for context in contexts:
        for open_page in context.pages:
            with contextlib.suppress(Exception):
                open_page.goto("about:blank", timeout=2_000)
        context.close()
    if contexts:
        time.sleep(SERVER_SETTLE_SECONDS)


@pytest.fixture
def page(new_context):
    return new_context().new_page()


def sign_in(page, live_server, user) -> None:
    """Sign in as an organizer does: open the one-time link, press its button, and wait
    for the console (the link's page itself signs nobody in)."""
    from playwright.sync_api import expect

    from tournament.writes.signin import sign_in_path

    page.goto(live_server.url + sign_in_path(user))
    page.get_by_role("button", name="Sign in", exact=True).click()
    expect(page.get_by_role("button", name="Sign out")).to_be_visible()
