"""The landing page at the server's root: players are sent to their table's QR code,
signed-in organizers straight to their console."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("organizer:events")
    return render(request, "home.html")
