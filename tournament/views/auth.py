"""Organizer sign-in: a password form, and the one-time links printed by `make run`."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth.tokens import default_token_generator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.encoding import force_str
from django.utils.http import urlsafe_base64_decode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET


@require_GET
def sign_in_link(request: HttpRequest, uidb64: str, token: str) -> HttpResponse:
    user_model = get_user_model()
    try:
        user = user_model.objects.get(pk=force_str(urlsafe_base64_decode(uidb64)))
    except (ValueError, TypeError, OverflowError, user_model.DoesNotExist):
        user = None
    if user is None or not default_token_generator.check_token(user, token):
        return render(
            request,
            "organizer/sign_in_link_invalid.html",
            status=404,
        )
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    messages.success(request, _("Signed in as %(name)s.") % {"name": user.get_username()})
    return redirect("organizer:events")
