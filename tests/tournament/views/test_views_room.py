"""The console's Address and Wi-Fi section: the organizer picks the address every QR code
and phone link uses and enters the hotspot once; the choice is kept, a lost address falls
back, FIVETRICKS_PUBLIC_URL wins, and co-facilitators change nothing."""

from __future__ import annotations

import html
import io
import re

import pytest
from django.core.management import call_command
from django.test import Client, override_settings
from django.urls import reverse

from tests import factories
from tests.tournament.common.test_qr import dark_modules, expected_modules
from tests.tournament.writes.test_cofacilitators import join
from tournament.common import network
from tournament.common.qr import wifi_payload
from tournament.models import CoRole, Event, RoomSettings
from tournament.reads.room import room_settings

pytestmark = pytest.mark.django_db

WIFI, VPN = "192.168.1.20", "10.8.0.2"


@pytest.fixture(autouse=True)
def _two_networks(monkeypatch):
    """A laptop on Wi-Fi (the routing table's choice) and on a VPN."""
    monkeypatch.setattr(network, "lan_addresses", lambda: [WIFI, VPN])
    monkeypatch.setattr(network, "interface_names", lambda: {WIFI: "wlan0", VPN: "tun0"})


def url(name, event):
    return reverse(f"organizer:{name}", args=[event.pk])


def console(client, event) -> str:
    return html.unescape(client.get(url("event", event)).content.decode())


@override_settings(PUBLIC_URL="", PORT=8000)
def test_the_console_lists_every_address_with_its_interface(signed_in, event):
    page = console(signed_in, event)
    section = page[page.index('id="room"') :]
    assert f'value="{WIFI}"' in section
    assert "wlan0" in section
    assert f'value="{VPN}"' in section
    assert "tun0" in section
    assert 'value="127.0.0.1"' not in section
    assert f'QR codes and phone links use: <strong class="mono">http://{WIFI}:8000' in section


@override_settings(PUBLIC_URL="", PORT=8000)
def test_a_chosen_address_is_kept_and_used_by_the_kit_and_the_projector(signed_in, organizer):
    event = factories.seated_event(owner=organizer, players=8, tables=2)

    response = signed_in.post(url("room_address", event), {"address": VPN}, follow=True)

    assert f"now use http://{VPN}:8000" in html.unescape(response.content.decode())
    assert RoomSettings.objects.get().phone_address == VPN
    kit = signed_in.get(reverse("kit:event_kit", args=[event.pk])).content.decode()
    token = factories.table(event, 1).token
    table_url = f"http://{VPN}:8000" + reverse("phone:table", args=[token])
    first_code = re.search(r"<svg.*?</svg>", kit, flags=re.S)[0]
    assert dark_modules(first_code) == expected_modules(table_url)
    screen = signed_in.get(reverse("projector:screen", args=[event.projector_token]))
    assert f"http://{VPN}:8000/t/me/" in screen.content.decode()

    signed_in.post(url("room_address", event), {"address": ""})
    assert RoomSettings.objects.get().phone_address is None
    assert f'use: <strong class="mono">http://{WIFI}:8000' in console(signed_in, event)


@override_settings(PUBLIC_URL="", PORT=8000)
def test_an_address_this_laptop_does_not_have_is_refused(signed_in, event):
    response = signed_in.post(url("room_address", event), {"address": "10.9.9.9"}, follow=True)
    assert "10.9.9.9 is not an address of this laptop" in html.unescape(response.content.decode())
    assert not RoomSettings.objects.exists()


@override_settings(PUBLIC_URL="", PORT=8000)
def test_a_chosen_address_the_laptop_lost_falls_back_and_the_console_says_so(
    signed_in, event, monkeypatch
):
    signed_in.post(url("room_address", event), {"address": VPN})
    monkeypatch.setattr(network, "lan_addresses", lambda: [WIFI])  # the VPN is off

    page = console(signed_in, event)

    assert f"The address you chose, {VPN}, is not on this laptop any more" in page
    assert f'use: <strong class="mono">http://{WIFI}:8000' in page
    screen = signed_in.get(reverse("projector:screen", args=[event.projector_token]))
    assert f"http://{WIFI}:8000/t/me/" in screen.content.decode()


@override_settings(PUBLIC_URL="https://tricks.example.org", PORT=8000)
def test_the_public_url_setting_wins_and_the_picker_says_why(signed_in, event):
    page = console(signed_in, event)
    assert "FIVETRICKS_PUBLIC_URL sets this address" in page
    assert url("room_address", event) not in page

    response = signed_in.post(url("room_address", event), {"address": VPN}, follow=True)
    assert "it cannot be changed here" in html.unescape(response.content.decode())
    assert not RoomSettings.objects.exists()


@pytest.mark.parametrize("role", [CoRole.OBSERVER, CoRole.ASSISTANT])
def test_co_facilitators_neither_see_nor_change_the_room(event, role):
    browser, _invitation = join(event, role)
    assert 'id="room"' not in console(browser, event)
    for action, data in (("room_address", {"address": VPN}), ("room_hotspot", {"wifi_name": "X"})):
        assert browser.post(url(action, event), data).status_code == 404
    assert not RoomSettings.objects.exists()


# --- the hotspot ------------------------------------------------------------------------


def test_the_hotspot_shows_a_wifi_code_on_the_projector_and_the_kit(signed_in, organizer):
    event = factories.seated_event(owner=organizer, players=8, tables=2)
    screen_url = reverse("projector:screen", args=[event.projector_token])
    assert "Join the Wi-Fi" not in signed_in.get(screen_url).content.decode()

    signed_in.post(
        url("room_hotspot", event),
        {"wifi_name": "Room; 12", "wifi_password": "cards:4ever", "wifi_security": "WPA"},
    )

    payload = wifi_payload("Room; 12", "cards:4ever")
    assert payload == r"WIFI:T:WPA;S:Room\; 12;P:cards\:4ever;;"
    screen = html.unescape(signed_in.get(screen_url).content.decode())
    assert "1. Join the Wi-Fi" in screen
    assert "Password: cards:4ever" in screen
    codes = re.findall(r"<svg[^>]*class=\"qr\".*?</svg>", screen, flags=re.S)
    assert any(dark_modules(code) == expected_modules(payload) for code in codes)
    kit = html.unescape(signed_in.get(reverse("kit:event_kit", args=[event.pk])).content.decode())
    assert kit.count("1. Join the Wi-Fi") == 4  # both halves of two tent cards
    assert "2. Scan your table's code" in kit


def test_a_hotspot_change_refreshes_the_welcome_screens(signed_in, event):
    version = event.version
    signed_in.post(url("room_hotspot", event), {"wifi_name": "Room", "wifi_security": "WPA"})
    assert Event.objects.get(pk=event.pk).version == version + 1


def test_an_empty_password_is_an_open_network(signed_in, event):
    signed_in.post(url("room_hotspot", event), {"wifi_name": "Room", "wifi_security": "WPA"})
    room = RoomSettings.objects.get()
    assert (room.wifi_name, room.wifi_password, room.wifi_security) == ("Room", "", "nopass")


def test_a_short_wpa_password_is_refused_and_what_was_typed_stays(signed_in, event):
    response = signed_in.post(
        url("room_hotspot", event),
        {"wifi_name": "Room", "wifi_password": "1234", "wifi_security": "WPA"},
    )
    page = html.unescape(response.content.decode())
    assert response.status_code == 400
    assert "A WPA password has at least 8 characters" in page
    assert 'value="Room"' in page
    assert 'value="1234"' in page
    assert not RoomSettings.objects.exists()


def test_removing_the_hotspot_removes_the_code(signed_in, event):
    signed_in.post(url("room_hotspot", event), {"wifi_name": "Room", "wifi_security": "WPA"})
    signed_in.post(url("room_hotspot", event), {"action": "clear"})
    assert not RoomSettings.objects.get().has_hotspot
    screen = signed_in.get(reverse("projector:screen", args=[event.projector_token]))
    assert "Join the Wi-Fi" not in screen.content.decode()


# --- the start-up banner and the sign-in link command ---------------------------------


@override_settings(PUBLIC_URL="")
def test_the_banner_and_the_signin_link_use_the_chosen_address(organizer, event, capsys):
    """Both read the organizer's latest event's room (tournament.reads.room: serving room)."""
    from tournament.management.commands import serve
    from tournament.writes.room import choose_phone_address

    choose_phone_address(event=event, address=VPN)
    command = serve.Command(stdout=io.StringIO())
    command.print_banner(organizer, port=8123, serving=False)
    banner = command.stdout._out.getvalue()
    assert f"http://{VPN}:8123/" in banner
    assert f"http://{WIFI}:8123" not in banner

    call_command("signin_link", username=organizer.username, port=8123)
    assert capsys.readouterr().out.startswith(f"http://{VPN}:8123/")


def test_a_finished_events_console_leaves_the_room_out(signed_in, event):
    event.finished_at = event.created_at
    event.save(update_fields=["finished_at"])
    assert 'id="room"' not in console(signed_in, event)
    signed_in.post(url("room_address", event), {"address": VPN})
    assert not RoomSettings.objects.exists()


# --- fenced between organizers ----------------------------------------------------------


def _hotspot(client, event, name, password):
    client.post(
        url("room_hotspot", event),
        {"wifi_name": name, "wifi_password": password, "wifi_security": "WPA"},
    )


@override_settings(PUBLIC_URL="", PORT=8000)
def test_another_organizers_room_settings_never_show_on_my_pages(
    signed_in, organizer, django_user_model
):
    mine = factories.seated_event(owner=organizer, players=8, tables=2)
    _hotspot(signed_in, mine, "Ada's room", "cards4ever")
    signed_in.post(url("room_address", mine), {"address": WIFI})
    bob = factories.make_organizer(django_user_model, "bob")
    bobs_browser = Client()
    bobs_browser.force_login(bob)
    theirs = factories.seated_event(owner=bob, players=8, tables=2)
    _hotspot(bobs_browser, theirs, "Evil-Twin", "gotcha123")
    bobs_browser.post(url("room_address", theirs), {"address": VPN})

    pages = {
        "console": console(signed_in, mine),
        "projector": signed_in.get(reverse("projector:screen", args=[mine.projector_token])),
        "kit": signed_in.get(reverse("kit:event_kit", args=[mine.pk])),
    }
    for name, page in pages.items():
        text = page if isinstance(page, str) else html.unescape(page.content.decode())
        assert "Evil-Twin" not in text, name
        assert "gotcha123" not in text, name
        assert f"http://{VPN}:8000" not in text, name  # Bob's address; the picker lists VPN
        assert f"http://{WIFI}:8000" in text, name
    assert "Ada's room" in pages["console"]
    bobs_console = console(bobs_browser, theirs)
    assert "Evil-Twin" in bobs_console
    assert "Ada's room" not in bobs_console


def test_a_new_event_starts_from_the_organizers_last_room_settings(
    signed_in, organizer, django_user_model
):
    first = factories.make_event(owner=organizer)
    _hotspot(signed_in, first, "Club room", "cards4ever")
    second = factories.make_event(owner=organizer)
    assert 'value="Club room"' in console(signed_in, second)

    _hotspot(signed_in, second, "Garden", "cards4ever")
    assert 'value="Club room"' in console(signed_in, first)  # the first keeps its own
    assert RoomSettings.objects.count() == 2
    stranger = factories.make_event(owner=factories.make_organizer(django_user_model, "bob"))
    assert room_settings(stranger).wifi_name == ""
