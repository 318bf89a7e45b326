"""Organizer sign-in: one-time links, and the rate limit on password sign-ins.

Terms:
    sign-in link   a URL that signs an organizer in without a password, printed by `make
                   run` and `manage.py signin_link`. Opening it (GET) only shows a "Sign in
                   as …" button, so a chat app's link preview cannot use it up; the button's
                   POST signs in. Its token is made by SignInLinkTokens, a password-reset
                   style token with its own salt (a password-reset token is no sign-in
                   link, and the other way round). The token hashes the last login time:
                   signing in changes that time, so each link works once; it expires
                   after PASSWORD_RESET_TIMEOUT.
    attempt        a password sign-in (console or admin) that has not succeeded: written
                   before the password is checked (SignInAttempt), so that concurrent
                   guesses in several server processes count too, and kept if it fails.
    lockout        too many attempts in the last LOCK_WINDOW, for one account from one
                   client address, or from one client address (whatever account they
                   named): the password is not even checked, and the message says when to
                   try again. An account is locked only for the addresses that failed, so
                   a guesser on the Wi-Fi cannot lock the organizer out from elsewhere. A
                   successful sign-in clears the account's count.
    client address see tournament.common.requests (answers to the debrief count by it
                   too).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.encoding import force_bytes, force_str
from django.utils.http import urlsafe_base64_decode, urlsafe_base64_encode
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament.common.product import manage_command
from tournament.models import SignInAttempt

if TYPE_CHECKING:
    from django.contrib.auth.models import User

DEFAULT_ORGANIZER = "organizer"

ACCOUNT_LIMIT = 5  # failed passwords per account, from one address, per window
ADDRESS_LIMIT = 20  # failed passwords per client address per window, any accounts
LOCK_WINDOW = timedelta(minutes=15)
USERNAME_MAX_LENGTH = SignInAttempt._meta.get_field("username").max_length


class SignInLinkTokens(PasswordResetTokenGenerator):
    """Tokens for sign-in links: Django's password-reset tokens under another salt, so
    neither kind of token is accepted as the other."""

    key_salt = "tournament.writes.signin.SignInLinkTokens"


sign_in_tokens = SignInLinkTokens()


def ensure_organizer(
    username: str = DEFAULT_ORGANIZER, *, superuser: bool | None = None
) -> tuple[User, bool]:
    """An organizer account, created without a usable password.

    The installation's own account ("organizer", made on first start) is a superuser: it
    sees every event and the admin, to fix data by hand. Other organizers (a hosted,
    multi-event install) see only their own events unless superuser=True.
    """
    if superuser is None:
        superuser = username == DEFAULT_ORGANIZER
    user_model = get_user_model()
    user, created = user_model.objects.get_or_create(
        username=username, defaults={"is_staff": superuser, "is_superuser": superuser}
    )
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user, created


def sign_in_path(user: User) -> str:
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = sign_in_tokens.make_token(user)
    return reverse("organizer:sign_in_link", kwargs={"uidb64": uid, "token": token})


def link_account(uidb64: str) -> User | None:
    """The active account a sign-in link names, or None for a garbled or unknown one."""
    user_model = get_user_model()
    try:
        user = user_model.objects.get(pk=force_str(urlsafe_base64_decode(uidb64)))
    except (ValueError, TypeError, OverflowError, user_model.DoesNotExist):
        return None
    return user if user.is_active else None


def link_is_valid(user, token: str) -> bool:
    """Whether the link's token is one we made for this account, unspent and unexpired."""
    return sign_in_tokens.check_token(user, token)


# Rate limit on password sign-ins.


class LockScope(StrEnum):
    ACCOUNT = "account"
    ADDRESS = "address"


@dataclass(frozen=True)
class Lockout:
    """Why a password sign-in was refused unchecked, and until when."""

    scope: LockScope
    until: datetime

    def message(self, now: datetime | None = None) -> str:
        now = now or timezone.now()
        minutes = max(1, math.ceil((self.until - now).total_seconds() / 60))
        when = {
            "minutes": minutes,
            "time": formats.time_format(timezone.localtime(self.until), "TIME_FORMAT"),
        }
        if self.scope == LockScope.ACCOUNT:
            text = ngettext(
                "Too many failed sign-ins for this account. "
                "Try again in %(minutes)s minute (at %(time)s).",
                "Too many failed sign-ins for this account. "
                "Try again in %(minutes)s minutes (at %(time)s).",
                minutes,
            )
        else:
            text = ngettext(
                "Too many failed sign-ins from this network address. "
                "Try again in %(minutes)s minute (at %(time)s).",
                "Too many failed sign-ins from this network address. "
                "Try again in %(minutes)s minutes (at %(time)s).",
                minutes,
            )
        later = _(
            "A one-time sign-in link still works meanwhile: "
            "%(manage_command)s signin_link on the server prints one."
        ) % {"manage_command": manage_command()}
        return f"{text % when} {later}"


def account_key(username: str) -> str:
    """The name attempts count under: as typed, without case, so that "Organizer" and
    "organizer" share one count."""
    return username.strip().casefold()[:USERNAME_MAX_LENGTH]


def start_password_attempt(
    *, username: str, address: str, now: datetime | None = None
) -> SignInAttempt | Lockout:
    """Record a password sign-in before its password is checked, or refuse it.

    The attempt is written first and the count read after, so attempts running at the
    same time in other processes see each other: at most the limit reach a password
    check per window. A refused attempt leaves no row (waiting it out is enough).
    """
    now = now or timezone.now()
    since = now - LOCK_WINDOW
    SignInAttempt.objects.filter(attempted_at__lt=since).delete()
    attempt = SignInAttempt.objects.create(
        username=account_key(username), address=address, attempted_at=now
    )
    per_account, per_address = SignInAttempt.objects.counts(
        username=attempt.username, address=address, since=since
    )
    others = SignInAttempt.objects.since(since).exclude(pk=attempt.pk)
    lockouts = []
    # The count includes this attempt: the limit is reached once `limit` others are in
    # the window, and lifts when the limit-th newest of them leaves it.
    if per_account > ACCOUNT_LIMIT:
        counted = others.filter(username=attempt.username, address=address).newest_times(
            ACCOUNT_LIMIT
        )
        lockouts.append(Lockout(LockScope.ACCOUNT, _lifts_at(counted, now)))
    if per_address > ADDRESS_LIMIT:
        counted = others.filter(address=address).newest_times(ADDRESS_LIMIT)
        lockouts.append(Lockout(LockScope.ADDRESS, _lifts_at(counted, now)))
    if not lockouts:
        return attempt
    attempt.delete()
    return max(lockouts, key=lambda lockout: lockout.until)


def _lifts_at(counted: list[datetime], now: datetime) -> datetime:
    # `counted` is short only when concurrent attempts vanished between the two reads.
    return (counted[-1] if counted else now) + LOCK_WINDOW


def finish_password_attempt(attempt: SignInAttempt, *, succeeded: bool) -> None:
    """A failed attempt stays counted; a success clears its account's count."""
    if succeeded:
        attempt.delete()
        clear_failed_attempts(attempt.username)


def clear_failed_attempts(username: str) -> None:
    """After a sign-in: the account's failures stop counting for it, but still count for
    the addresses they came from (signing in to one's own account must not reset the
    count of an address that guesses at others)."""
    if key := account_key(username):
        SignInAttempt.objects.filter(username=key).update(username="")
