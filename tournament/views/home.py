"""The landing page at the server's root: players are sent to their table's QR code,
signed-in organizers straight to their console."""

from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

FAVICON = "img/favicon.svg"


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("organizer:events")
    return render(request, "home.html")


@require_GET
@cache_control(max_age=7 * 24 * 3600, public=True)
def favicon(request: HttpRequest) -> HttpResponse:
    """/favicon.ico, which browsers ask for on their own (pages link the SVG too)."""
    path = finders.find(FAVICON)
    if path is None:  # only in a broken installation: the icon ships with the app
        raise Http404
    with open(path, "rb") as icon:
        return HttpResponse(icon.read(), content_type="image/svg+xml")
