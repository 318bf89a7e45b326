"""What a view's request carries beyond Django's, spelled out for the type checker.

Terms:
    htmx request     every request once django_htmx's middleware has run: it adds
                     ``request.htmx`` (whether htmx sent it, and which element).
    signed-in request  a request that ``login_required`` let through: its user is a real
                     account, never the anonymous one.

These classes are annotations only: Django makes the requests, none is built from them.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxRequest(HttpRequest):
    htmx: HtmxDetails


class SignedInRequest(HtmxRequest):
    user: User
