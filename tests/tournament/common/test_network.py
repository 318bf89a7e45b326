"""QR codes and printed links must carry an address phones can reach, never localhost."""

from django.test import RequestFactory, override_settings

from tournament.common import network


def test_a_configured_public_url_wins(settings):
    settings.PUBLIC_URL = "https://tricks.example.org"
    request = RequestFactory().get("/", HTTP_HOST="localhost:8000")
    assert network.public_base_url(request) == "https://tricks.example.org"


@override_settings(PUBLIC_URL="")
def test_localhost_is_replaced_by_the_lan_address(monkeypatch):
    monkeypatch.setattr(network, "lan_addresses", lambda: ["192.168.1.20"])
    for host in ("localhost:8000", "127.0.0.1:8000"):
        request = RequestFactory().get("/", HTTP_HOST=host)
        assert network.public_base_url(request) == "http://192.168.1.20:8000"


@override_settings(PUBLIC_URL="", ALLOWED_HOSTS=["*"])
def test_a_lan_host_is_kept_as_it_was_reached():
    request = RequestFactory().get("/", HTTP_HOST="192.168.1.20:8000")
    assert network.public_base_url(request) == "http://192.168.1.20:8000"


def test_lan_addresses_skip_loopback_and_link_local(monkeypatch):
    class Result:
        stdout = "127.0.0.1 169.254.3.4 10.0.0.7 fe80::1"

    monkeypatch.setattr(network.subprocess, "run", lambda *a, **k: Result())
    monkeypatch.setattr(network.socket, "gethostbyname_ex", lambda name: (name, [], ["127.0.1.1"]))
    assert network.lan_addresses() == ["10.0.0.7"]
