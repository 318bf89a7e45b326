"""The client address: what sign-in lockouts and debrief answers count by."""

from __future__ import annotations

from django.test import RequestFactory

from tournament.common.requests import UNKNOWN_ADDRESS, client_address


def test_the_client_address_is_remote_addr_and_a_clients_forwarded_for_is_ignored(settings):
    settings.SIGN_IN_ADDRESS_FROM_PROXY = False
    request = RequestFactory().post(
        "/", REMOTE_ADDR="203.0.113.5", HTTP_X_FORWARDED_FOR="198.51.100.1"
    )
    assert client_address(request) == "203.0.113.5"
    assert client_address(None) == UNKNOWN_ADDRESS


def test_behind_the_trusted_proxy_the_client_is_the_address_it_appended(settings):
    settings.SIGN_IN_ADDRESS_FROM_PROXY = True
    factory = RequestFactory()
    forged_then_real = factory.post(
        "/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="1.2.3.4, 198.51.100.7"
    )
    assert client_address(forged_then_real) == "198.51.100.7"
    garbled = factory.post("/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="nonsense")
    assert client_address(garbled) == "10.0.0.2"
    assert client_address(factory.post("/", REMOTE_ADDR="10.0.0.2")) == "10.0.0.2"
