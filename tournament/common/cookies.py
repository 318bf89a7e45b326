"""The cookies a phone keeps.

Terms:
    phone cookie  what a player's phone remembers between taps without an account: its id,
                  its games of the round at a table, its own language. Every one is
                  SameSite=Lax, HttpOnly (no script reads it) and Secure when the request
                  came over https (a LAN event runs on plain http, where a Secure cookie
                  would never come back).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse


def set_phone_cookie(
    response: HttpResponse,
    request: HttpRequest,
    name: str,
    value: str,
    *,
    max_age: int,
    path: str = "/",
) -> None:
    """Set one phone cookie on ``response`` (see Terms for its flags)."""
    response.set_cookie(
        name,
        value,
        max_age=max_age,
        path=path,
        samesite="Lax",
        httponly=True,
        secure=request.is_secure(),
    )
