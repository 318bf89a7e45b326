"""The console's Address and Wi-Fi section in a real browser: the organizer picks the
address the QR codes use and enters the hotspot, the projector's welcome screen and the
kit show the Wi-Fi code, and a phone that opens its table's page is counted on the
console's card by the console's own polling."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tables.writes import sightings
from tests import factories
from tests.browser.conftest import LAPTOP, PHONE, PROJECTOR, pictures, sign_in, snap
from tournament.common import network
from tournament.views.organizer import console as console_views
from tournament.writes.room import save_hotspot
from tournament.writes.signin import ensure_organizer

pytestmark = pytest.mark.django_db(transaction=True)

WIFI, VPN = "192.168.1.20", "10.8.0.2"


def test_the_organizer_picks_the_address_and_the_hotspot(
    live_server, new_context, monkeypatch, settings, tmp_path
):
    settings.PUBLIC_URL = ""
    monkeypatch.setattr(network, "lan_addresses", lambda: [WIFI, VPN])
    monkeypatch.setattr(network, "interface_names", lambda: {WIFI: "wlan0", VPN: "tun0"})
    monkeypatch.setattr(sightings, "FLUSH_SECONDS", 0)  # every sighting written at once
    monkeypatch.setattr(console_views, "REACHED_REFRESH_SECONDS", 1)
    folder = pictures("room", tmp_path)
    organizer, _ = ensure_organizer()
    event = factories.seated_event(owner=organizer, players=12, tables=3, name="Friday workshop")
    console = new_context(viewport=LAPTOP).new_page()
    sign_in(console, live_server, organizer)
    console.goto(live_server.url + reverse("organizer:event", args=[event.pk]))

    room = console.locator("#room")
    expect(room).to_contain_text(f"http://{WIFI}:")
    expect(room.get_by_label("Automatic")).to_be_checked()
    room.get_by_label(f"{VPN} tun0").check()
    room.get_by_role("button", name="Use this address").click()
    expect(console.locator("#flash")).to_contain_text(f"now use http://{VPN}:")
    expect(room.get_by_label(f"{VPN} tun0")).to_be_checked()

    room.get_by_label("Network name (SSID)").fill("Workshop hotspot")
    room.get_by_label("Password").fill("cards-4-ever")
    room.get_by_role("button", name="Save the Wi-Fi").click()
    expect(console.locator("#flash")).to_contain_text("Wi-Fi Workshop hotspot saved")
    expect(room.get_by_role("button", name="Remove the Wi-Fi")).to_be_visible()
    snap(console.locator("#room"), folder / "console-address-picker.png")
    snap(console, folder / "console-setup.png", full_page=True)

    projector = new_context(viewport=PROJECTOR).new_page()
    projector.goto(live_server.url + reverse("projector:screen", args=[event.projector_token]))
    expect(projector.get_by_text("1. Join the Wi-Fi")).to_be_visible()
    wifi_code = projector.get_by_role("img", name="Wi-Fi QR code: scan it to join Workshop hotspot")
    expect(wifi_code).to_be_visible()
    expect(projector.get_by_text("Password: cards-4-ever")).to_be_visible()
    expect(projector.locator(".players-url")).to_contain_text(f"http://{VPN}:")
    snap(projector, folder / "projector-welcome-wifi.png")

    kit = console.context.new_page()
    kit.goto(live_server.url + reverse("kit:event_kit", args=[event.pk]))
    expect(kit.locator(".tent-wifi")).to_have_count(6)  # two halves of three tent cards
    snap(kit.locator("section.tent").first, folder / "kit-tent-card-wifi.png")

    # A phone opens table 1's page: the console's poll shows it on that table's card.
    phone = new_context(viewport=PHONE).new_page()
    phone.goto(live_server.url + reverse("phone:table", args=[factories.table(event, 1).token]))
    card = console.locator("#table-1")
    expect(card).to_contain_text("1 phone reached it in the last minute", timeout=15_000)
    expect(console.locator("#tables-head")).to_contain_text("1 phone reached the server")
    snap(console.locator("#tables"), folder / "console-phones-reached.png")

    # Removing the hotspot takes the code off the projector.
    console.locator("#room").get_by_role("button", name="Remove the Wi-Fi").click()
    expect(console.locator("#flash")).to_contain_text("Wi-Fi removed")
    expect(projector.get_by_text("1. Join the Wi-Fi")).to_have_count(0, timeout=15_000)


def test_the_welcome_screen_with_the_wifi_code_fits_in_german(
    live_server, new_context, monkeypatch, settings, tmp_path
):
    """The longest step titles (German) wrap above codes that stay level and on screen."""
    settings.PUBLIC_URL = ""
    monkeypatch.setattr(network, "lan_addresses", lambda: [WIFI])
    organizer, _ = ensure_organizer()
    event = factories.seated_event(
        owner=organizer, players=8, tables=2, name="Freitagswerkstatt", language="de"
    )
    save_hotspot(event=event, name="Werkstatt-Hotspot", password="karten-2026", security="WPA")
    projector = new_context(viewport=PROJECTOR).new_page()
    projector.goto(live_server.url + reverse("projector:screen", args=[event.projector_token]))

    expect(projector.get_by_text("1. Mit dem WLAN verbinden")).to_be_visible()
    codes = projector.locator(".join-step .players-qr")
    first, second = codes.nth(0).bounding_box(), codes.nth(1).bounding_box()
    assert first["y"] == second["y"]
    titles = projector.locator(".step-title")
    one, two = titles.nth(0).bounding_box(), titles.nth(1).bounding_box()
    assert one["x"] + one["width"] <= two["x"]  # the titles do not overlap
    for element in projector.locator(".join-step p").all():
        box = element.bounding_box()
        assert box["y"] + box["height"] <= PROJECTOR["height"]
    snap(projector, pictures("room", tmp_path) / "projector-welcome-wifi-de.png")

    kit = new_context(viewport=LAPTOP).new_page()
    sign_in(kit, live_server, organizer)
    kit.goto(live_server.url + reverse("kit:event_kit", args=[event.pk]))
    steps = kit.locator(".tent-scan.with-wifi").first
    expect(steps).to_contain_text("1. Mit dem WLAN verbinden")
    column = steps.bounding_box()
    for element in steps.locator("b, .tent-wifi").all():
        box = element.bounding_box()
        assert column["x"] <= box["x"]
        assert box["x"] + box["width"] <= column["x"] + column["width"] + 0.5
    snap(kit.locator("section.tent").first, pictures("room", tmp_path) / "kit-tent-card-de.png")
