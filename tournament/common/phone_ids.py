"""A phone's id: who a device is between its taps, without an account.

Terms:
    phone id     a random id (``new_phone_id``: 22 URL-safe characters) in the ``ft_phone``
                 cookie, set by the first page that needs it and kept for weeks, for every
                 table and every personal link. It grants nothing: it tells two reports of
                 one phone apart from a confirmation (tables.writes.reporting), one answer
                 per phone to a debrief question (tables.writes.debrief_answers), which
                 device holds a player's seat at a screen event (tables.writes.screen_seats),
                 and how many phones reached a table (tables.writes.sightings). A phone
                 that refuses cookies gets a new id with each request and is judged as a
                 phone seen once.
    signed       the cookie holds the id signed (django.core.signing), so an id the server
                 did not hand out, or no cookie, is no id (``phone_id`` answers None).
    kept         ``keep_phone_id`` sets the cookie only when the request did not already
                 carry that id: one Set-Cookie per new phone, with the flags of every phone
                 cookie (tournament.common.cookies).

Plumbing: no rule and no model here.
"""

from __future__ import annotations

import re
import secrets

from django.core import signing
from django.http import HttpRequest, HttpResponse

from tournament.common.cookies import set_phone_cookie

PHONE_COOKIE = "ft_phone"
PHONE_COOKIE_AGE = 90 * 24 * 60 * 60
# new_phone_id writes 22 characters; anything else is not an id we made.
PHONE_ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{16,32}")


def _signer() -> signing.Signer:
    return signing.Signer(salt=PHONE_COOKIE)


def new_phone_id() -> str:
    """A fresh phone id (see Terms), for a phone that holds none yet."""
    return secrets.token_urlsafe(16)


def signed_phone_id(phone: str) -> str:
    """The cookie's value for ``phone`` (see Terms: signed)."""
    return _signer().sign(phone)


def phone_id(request: HttpRequest) -> str | None:
    """The id this phone was given, if it kept a valid one (see Terms: signed)."""
    try:
        value = _signer().unsign(request.COOKIES.get(PHONE_COOKIE, ""))
    except signing.BadSignature:
        return None
    return value if PHONE_ID_PATTERN.fullmatch(value) else None


def keep_phone_id(response: HttpResponse, request: HttpRequest, phone: str) -> None:
    """Give the phone its id, unless it already holds it (see Terms: kept)."""
    if phone_id(request) == phone:
        return
    set_phone_cookie(
        response, request, PHONE_COOKIE, signed_phone_id(phone), max_age=PHONE_COOKIE_AGE
    )
