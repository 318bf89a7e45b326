"""The secrets and seeds a new row is born with.

Terms:
    token   an unguessable URL-safe string that a link carries instead of a password: a
            table's phones, the projector, the players' page (``new_secret_token``).
    seed    the number that drives an event's random seating and variant draw; the same
            seed repeats them (``new_seed``).
    video secret
            the random part of an event's video rooms' names (``new_video_secret``): on a
            public service such as meet.jit.si a room's name is its only lock.

The migrations name ``tournament.models.new_secret_token`` and ``tournament.models.new_seed``
as field defaults; the package re-exports them under those names.
"""

from __future__ import annotations

import base64
import re
import secrets

SECRET_TOKEN_BYTES = 24  # 192 bits: unguessable links for tables and projectors
VIDEO_SECRET_BYTES = 10  # 80 bits: no stranger finds a table's video room by trying names


# URL-safe base64 as new_secret_token writes it, at most as long as the token fields.
TOKEN_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,64}")


def new_secret_token() -> str:
    return secrets.token_urlsafe(SECRET_TOKEN_BYTES)


def looks_like_token(token: str) -> bool:
    """Whether a link's token could be one we made, checked before any query, so a
    mangled link (NUL bytes, spaces, 10 kB) is a 404 and never a database error."""
    return TOKEN_PATTERN.fullmatch(token) is not None


def new_seed() -> int:
    return secrets.randbelow(1_000_000)


def new_video_secret() -> str:
    """An event's video secret (see Terms): 16 lowercase letters and digits (base32), so a
    service that folds a room's name to lowercase keeps every one of its 80 bits."""
    return base64.b32encode(secrets.token_bytes(VIDEO_SECRET_BYTES)).decode("ascii").lower()
