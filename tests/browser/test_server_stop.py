"""The console's "Stop the server" in a real browser: the organizer at the laptop finds it
at the foot of the console, confirms on a page of its own, and reads that the server
stopped, where the data is and how to start again. The live server runs in this process,
so the signal is caught here and the server survives."""

from __future__ import annotations

import threading

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests import factories
from tests.browser.conftest import LAPTOP, pictures, sign_in, snap
from tournament.serving import server_stop
from tournament.writes.signin import ensure_organizer

pytestmark = pytest.mark.django_db(transaction=True)

MAIN = 4321


def test_the_organizer_at_the_laptop_stops_the_server(
    live_server, new_context, monkeypatch, settings, tmp_path
):
    settings.STOPPABLE_SERVER_PID = MAIN  # as `serve` would have started it, on a laptop
    signalled = threading.Event()
    sent: list[int] = []

    def caught(pid: int) -> None:
        sent.append(pid)
        signalled.set()

    monkeypatch.setattr(server_stop, "send_stop_signal", caught)
    monkeypatch.setattr(server_stop, "STOP_DELAY", 0.2)
    folder = pictures("server-stop", tmp_path)
    organizer, _ = ensure_organizer()
    event = factories.seated_event(owner=organizer, players=8, tables=2, name="Friday workshop")
    console = new_context(viewport=LAPTOP).new_page()
    sign_in(console, live_server, organizer)
    console_url = live_server.url + reverse("organizer:event", args=[event.pk])
    console.goto(console_url)

    footer = console.locator("footer.console-foot")
    footer.scroll_into_view_if_needed()
    snap(console, folder / "console-footer.png")
    footer.get_by_role("button", name="Stop the server").click()

    expect(console.get_by_role("heading", name="Stop the server?")).to_be_visible()
    expect(console.get_by_text("Phones and the projector will stop updating")).to_be_visible()
    snap(console, folder / "stop-confirm.png")
    # Not yet: the first button only asks.
    assert sent == []
    console.get_by_role("link", name="Keep it running").click()
    expect(console).to_have_url(console_url)
    assert sent == []

    console.locator("footer.console-foot").get_by_role("button", name="Stop the server").click()
    console.get_by_role("button", name="Stop the server").click()

    expect(console.get_by_role("heading", name="The server has stopped")).to_be_visible()
    expect(console.get_by_text("safe to close this window")).to_be_visible()
    expect(console.locator(".server-path").first).to_have_text(
        str(settings.DATABASES["default"]["NAME"])
    )
    expect(console.get_by_role("heading", name="To start it again")).to_be_visible()
    snap(console, folder / "stopped.png")
    assert signalled.wait(timeout=10)
    assert sent == [MAIN]
