"""Organizer sign-in by one-time link (the password form is Django's LoginView with
tournament.forms.SignInForm).

Opening a link (GET) shows whose account it signs in to and one button; only the button's
POST signs in and spends the link, so a chat app's link preview cannot use it up.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from tournament.writes import signin


@never_cache
@require_http_methods(["GET", "POST"])
def sign_in_link(request: HttpRequest, uidb64: str, token: str) -> HttpResponse:
    user = signin.link_account(uidb64)
    if user is None or not signin.link_is_valid(user, token):
        if user is not None and request.user == user:
            # Spent by this very browser (the button pressed twice, the link opened again).
            return redirect("organizer:events")
        return render(request, "organizer/sign_in_link_invalid.html", status=404)
    if request.method == "GET":
        return render(request, "organizer/sign_in_link.html", {"account": user})
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    signin.clear_failed_attempts(user.get_username())
    messages.success(request, _("Signed in as %(name)s.") % {"name": user.get_username()})
    return redirect("organizer:events")
