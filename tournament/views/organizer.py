"""Organizer console views: thin, signed-in, one event at a time."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from tournament.models import Event


@require_GET
@login_required
def event_list(request: HttpRequest) -> HttpResponse:
    events = Event.objects.visible_to(request.user).select_related("owner")
    return render(request, "organizer/event_list.html", {"events": events})
