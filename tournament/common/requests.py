"""What a view's request carries beyond Django's, spelled out for the type checker.

Terms:
    htmx request     every request once django_htmx's middleware has run: it adds
                     ``request.htmx`` (whether htmx sent it, and which element).
    signed-in request  a request that ``login_required`` let through: its user is a real
                     account, never the anonymous one.
    client address   REMOTE_ADDR, or behind the trusted proxy, the address it appended to
                     X-Forwarded-For (settings.SIGN_IN_ADDRESS_FROM_PROXY); what sign-in
                     lockouts and debrief answers count by.

The classes are annotations only: Django makes the requests, none is built from them.
"""

from __future__ import annotations

import contextlib
import ipaddress

from django.conf import settings
from django.contrib.auth.models import User
from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxRequest(HttpRequest):
    htmx: HtmxDetails


class SignedInRequest(HtmxRequest):
    user: User


UNKNOWN_ADDRESS = "unknown"
# The longest address text: an IPv6 address with an IPv4 tail.
ADDRESS_MAX_LENGTH = 45


def client_address(request: HttpRequest | None) -> str:
    """The client address (see Terms), or UNKNOWN_ADDRESS."""
    if request is None:
        return UNKNOWN_ADDRESS
    address = request.META.get("REMOTE_ADDR") or ""
    if settings.SIGN_IN_ADDRESS_FROM_PROXY:
        # The proxy appends the address it saw; anything before it came from the client.
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "").rsplit(",", 1)[-1].strip()
        with contextlib.suppress(ValueError):  # none or garbled: keep REMOTE_ADDR
            address = str(ipaddress.ip_address(forwarded))
    return address[:ADDRESS_MAX_LENGTH] or UNKNOWN_ADDRESS
