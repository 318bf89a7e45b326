"""QR codes and printed links carry an address phones can reach: never localhost, never the
request's Host header; the LAN address comes from the routing table first; a laptop with
only a loopback address is told so where links are made."""

from __future__ import annotations

import html
import re
import socket

import pytest
from django.http.request import validate_host
from django.test import override_settings
from django.urls import reverse

from tests import factories
from tests.tournament.common.test_qr import dark_modules, expected_modules
from tournament.common import network

LAN = "192.168.1.20"


@pytest.fixture(autouse=True)
def _fresh_detection():
    network.forget_lan_addresses()
    yield
    network.forget_lan_addresses()


class FakeSocket:
    """A UDP socket whose connect() answers from a made-up routing table. It has no send
    method: detection must not send anything."""

    routes: dict[str, str] = {}
    probed: list[str] = []

    def __init__(self, family: int, kind: int) -> None:
        assert (family, kind) == (socket.AF_INET, socket.SOCK_DGRAM)
        self.address = ""

    def __enter__(self) -> FakeSocket:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def connect(self, probe: tuple[str, int]) -> None:
        FakeSocket.probed.append(probe[0])
        if probe[0] not in FakeSocket.routes:
            raise OSError(101, "Network is unreachable")
        self.address = FakeSocket.routes[probe[0]]

    def getsockname(self) -> tuple[str, int]:
        return (self.address, 54321)


def fake_network(monkeypatch, *, routes: dict[str, str], hostname_addresses: list[str]) -> None:
    FakeSocket.routes, FakeSocket.probed = routes, []
    monkeypatch.setattr(network, "detect_interfaces", dict)
    monkeypatch.setattr(network.socket, "socket", FakeSocket)
    monkeypatch.setattr(network.socket, "gethostname", lambda: "Ada-Laptop")
    monkeypatch.setattr(
        network.socket,
        "getaddrinfo",
        lambda host, port, family: [
            (socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, 0)) for a in hostname_addresses
        ],
    )


# --- finding the LAN address ------------------------------------------------------------


def test_the_routing_tables_choice_comes_first(monkeypatch):
    fake_network(
        monkeypatch,
        routes={network.ROUTE_PROBE[0]: "10.0.0.7"},
        hostname_addresses=["127.0.1.1", "192.168.56.1", "10.0.0.7"],
    )

    assert network.detect_lan_addresses() == ["10.0.0.7", "192.168.56.1"]
    assert FakeSocket.probed[0] == network.ROUTE_PROBE[0]


def test_without_a_default_route_the_machines_name_then_private_routes_answer(monkeypatch):
    fake_network(monkeypatch, routes={}, hostname_addresses=["172.20.1.4"])
    assert network.detect_lan_addresses() == ["172.20.1.4"]

    # A laptop hotspot: no default route, no resolvable name, one attached private network.
    fake_network(monkeypatch, routes={"192.168.0.1": "192.168.137.1"}, hostname_addresses=[])
    assert network.detect_lan_addresses() == ["192.168.137.1"]


def test_loopback_link_local_and_ipv6_addresses_are_skipped(monkeypatch):
    fake_network(
        monkeypatch,
        routes={network.ROUTE_PROBE[0]: "127.0.0.1"},
        hostname_addresses=["127.0.1.1", "169.254.3.4", "fe80::1", "0.0.0.0", "10.0.0.7"],
    )
    assert network.detect_lan_addresses() == ["10.0.0.7"]


def test_a_machine_with_no_network_finds_no_address(monkeypatch):
    fake_network(monkeypatch, routes={}, hostname_addresses=["127.0.1.1"])
    assert network.detect_lan_addresses() == []


def test_addresses_are_detected_again_after_a_few_seconds(monkeypatch):
    found = iter([[], [LAN]])
    clock = [1000.0]
    monkeypatch.setattr(network, "detect_lan_addresses", lambda: next(found))
    monkeypatch.setattr(network.time, "monotonic", lambda: clock[0])

    assert network.lan_addresses() == []
    clock[0] += network.RECHECK_SECONDS / 2
    assert network.lan_addresses() == []
    clock[0] += network.RECHECK_SECONDS
    assert network.lan_addresses() == [LAN]


# --- the public base URL ----------------------------------------------------------------


def test_a_configured_public_url_wins(settings, monkeypatch):
    monkeypatch.setattr(network, "lan_addresses", lambda: [LAN, "10.8.0.2"])
    settings.PUBLIC_URL = "https://tricks.example.org"
    assert network.phone_base_url() == "https://tricks.example.org"
    assert network.phone_base_url(chosen="10.8.0.2") == "https://tricks.example.org"


@override_settings(PUBLIC_URL="", PORT=8765)
def test_the_lan_address_and_the_servers_port_make_the_url(monkeypatch):
    monkeypatch.setattr(network, "lan_addresses", lambda: [LAN])
    assert network.phone_base_url() == f"http://{LAN}:8765"
    assert network.phone_base_url(8000) == f"http://{LAN}:8000"


@override_settings(PUBLIC_URL="", PORT=8000)
def test_a_chosen_address_counts_only_while_the_machine_has_it(monkeypatch):
    monkeypatch.setattr(network, "lan_addresses", lambda: [LAN, "10.8.0.2"])
    assert network.phone_base_url(chosen="10.8.0.2") == "http://10.8.0.2:8000"

    monkeypatch.setattr(network, "lan_addresses", lambda: [LAN])
    assert network.phone_base_url(chosen="10.8.0.2") == f"http://{LAN}:8000"


def test_interfaces_name_their_addresses_on_linux(monkeypatch):
    monkeypatch.setattr(network.sys, "platform", "linux")
    monkeypatch.setattr(
        network.socket, "if_nameindex", lambda: [(1, "lo"), (2, "wlan0"), (3, "tun0")]
    )
    answers = {"lo": "127.0.0.1", "wlan0": LAN, "tun0": "10.8.0.2"}
    monkeypatch.setattr(network, "_interface_address", lambda sock, name: answers[name])

    assert network.detect_interfaces() == {LAN: "wlan0", "10.8.0.2": "tun0"}

    monkeypatch.setattr(network.sys, "platform", "win32")
    assert network.detect_interfaces() == {}


def test_every_interfaces_address_is_a_lan_address_after_the_routed_one(monkeypatch):
    fake_network(monkeypatch, routes={network.ROUTE_PROBE[0]: LAN}, hostname_addresses=[])
    monkeypatch.setattr(network, "detect_interfaces", lambda: {"10.8.0.2": "tun0", LAN: "wlan0"})
    assert network.detect_lan_addresses() == [LAN, "10.8.0.2"]


@pytest.mark.django_db
@override_settings(PUBLIC_URL="", PORT=8000, ALLOWED_HOSTS=["*"])
def test_the_kits_qr_codes_ignore_a_forged_host(signed_in, organizer, monkeypatch):
    monkeypatch.setattr(network, "lan_addresses", lambda: [LAN])
    event = factories.seated_event(owner=organizer, players=8, tables=2)

    page = signed_in.get(
        reverse("kit:event_kit", args=[event.pk]), HTTP_HOST="evil.example"
    ).content.decode()

    url = f"http://{LAN}:8000" + reverse("phone:table", args=[factories.table(event, 1).token])
    first_code = re.search(r"<svg.*?</svg>", page, flags=re.S)[0]
    assert dark_modules(first_code) == expected_modules(url)
    assert "evil.example" not in page


@pytest.mark.django_db
@override_settings(PUBLIC_URL="", PORT=8000, ALLOWED_HOSTS=["*"])
def test_the_projectors_players_link_ignores_a_forged_host(client, event, monkeypatch):
    monkeypatch.setattr(network, "lan_addresses", lambda: [LAN])

    page = client.get(
        reverse("projector:screen", args=[event.projector_token]), HTTP_HOST="evil.example"
    ).content.decode()

    assert f"http://{LAN}:8000" + reverse("phone:player_home", args=[event.players_token]) in page
    assert "evil.example" not in page


@pytest.mark.django_db
def test_a_forged_host_is_refused_by_default(client):
    assert client.get("/", HTTP_HOST="evil.example").status_code == 400
    assert client.get("/", HTTP_HOST="localhost:8000").status_code == 200


# --- allowed hosts ----------------------------------------------------------------------


def test_allowed_hosts_admit_an_address_the_laptop_got_after_starting(monkeypatch):
    monkeypatch.setattr(network, "lan_addresses", lambda: [])
    hosts = network.AllowedHosts(["localhost", "127.0.0.1"])
    assert not validate_host("10.1.1.9", hosts)

    monkeypatch.setattr(network, "lan_addresses", lambda: ["10.1.1.9"])
    assert validate_host("10.1.1.9", hosts)
    assert validate_host("localhost", hosts)
    assert not validate_host("evil.example", hosts)


def test_default_allowed_hosts_are_this_machines_names_and_the_public_host(monkeypatch):
    monkeypatch.setattr(network.socket, "gethostname", lambda: "Ada-Laptop")
    monkeypatch.setattr(network, "lan_addresses", lambda: [LAN])

    hosts = network.default_allowed_hosts("https://tricks.example.org")

    assert set(hosts) == {
        "localhost",
        "127.0.0.1",
        "[::1]",
        "ada-laptop",
        "ada-laptop.local",
        LAN,
        "tricks.example.org",
    }


# --- the loopback warning ---------------------------------------------------------------

WARNING = "which phones cannot reach"


@override_settings(PUBLIC_URL="", PORT=8000)
def test_only_a_loopback_address_is_said_loudly_with_how_to_set_the_public_url(monkeypatch):
    monkeypatch.setattr(network, "lan_addresses", lambda: [])
    warning = network.address_warning()
    assert WARNING in warning
    assert "http://127.0.0.1:8000" in warning
    assert "FIVETRICKS_PUBLIC_URL=http://" in warning

    monkeypatch.setattr(network, "lan_addresses", lambda: [LAN])
    assert network.address_warning() is None


def test_a_public_url_needs_no_lan_address_unless_it_is_loopback(settings, monkeypatch):
    monkeypatch.setattr(network, "lan_addresses", lambda: [])
    settings.PUBLIC_URL = "https://tricks.example.org"
    assert network.address_warning() is None
    settings.PUBLIC_URL = "http://localhost:8000"
    assert WARNING in network.address_warning()


@pytest.mark.django_db
@override_settings(PUBLIC_URL="")
def test_the_console_and_the_kit_show_the_warning(signed_in, organizer, monkeypatch):
    event = factories.seated_event(owner=organizer, players=8, tables=2)
    pages = [reverse("organizer:event", args=[event.pk]), reverse("kit:event_kit", args=[event.pk])]

    monkeypatch.setattr(network, "lan_addresses", lambda: [])
    for page in pages:
        text = html.unescape(signed_in.get(page).content.decode())
        assert text.count(WARNING) == 1, page
        assert 'class="message message-error address-warning" role="alert"' in text

    monkeypatch.setattr(network, "lan_addresses", lambda: [LAN])
    for page in pages:
        assert WARNING not in html.unescape(signed_in.get(page).content.decode())
