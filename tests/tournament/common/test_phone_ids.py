"""A phone's id: handed out signed, read back only when the server signed it, set once."""

from __future__ import annotations

from django.http import HttpResponse
from django.test import RequestFactory

from tournament.common.phone_ids import (
    PHONE_COOKIE,
    keep_phone_id,
    new_phone_id,
    phone_id,
    signed_phone_id,
)


def request_with(cookie: str | None, *, secure: bool = False):
    request = RequestFactory().get("/", secure=secure)
    if cookie is not None:
        request.COOKIES[PHONE_COOKIE] = cookie
    return request


def test_an_id_the_server_signed_is_read_back():
    phone = new_phone_id()
    assert phone_id(request_with(signed_phone_id(phone))) == phone


def test_no_cookie_an_unsigned_id_or_a_made_up_one_is_no_id():
    assert phone_id(request_with(None)) is None
    assert phone_id(request_with(new_phone_id())) is None
    assert phone_id(request_with(signed_phone_id("short"))) is None
    assert phone_id(request_with(signed_phone_id("no spaces allowed here at all"))) is None


def test_keep_sets_the_cookie_for_a_new_phone_only():
    phone = new_phone_id()
    response = HttpResponse()
    keep_phone_id(response, request_with(None, secure=True), phone)
    cookie = response.cookies[PHONE_COOKIE]
    assert cookie.value == signed_phone_id(phone)
    assert cookie["httponly"]
    assert cookie["secure"]
    assert cookie["samesite"] == "Lax"
    again = HttpResponse()
    keep_phone_id(again, request_with(cookie.value), phone)
    assert PHONE_COOKIE not in again.cookies
