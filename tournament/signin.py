"""One-time sign-in links for organizers.

Terms: a *sign-in link* logs an organizer in without a password. It uses Django's
password-reset token, which hashes the user's last login time: signing in changes that
time, so each link works once, and it expires after PASSWORD_RESET_TIMEOUT.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

DEFAULT_ORGANIZER = "organizer"


def ensure_organizer(
    username: str = DEFAULT_ORGANIZER, *, superuser: bool | None = None
) -> tuple[object, bool]:
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


def sign_in_path(user) -> str:
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = default_token_generator.make_token(user)
    return reverse("organizer:sign_in_link", kwargs={"uidb64": uid, "token": token})
