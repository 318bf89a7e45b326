"""The console's radar (tournament.reads.radar): its panel, refreshed on its own every few
seconds (its flags follow the clock, which no version counts), and its thresholds."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from tables.reads.game_claims import uses_scoring_clause
from tournament.forms import RadarForm
from tournament.models import Event
from tournament.reads.radar import build_radar
from tournament.views.access import event_view
from tournament.views.organizer.answers import back_to, console_url, get_goes_to

RADAR_REFRESH_SECONDS = 20


def radar_context(event, form: RadarForm | None = None) -> dict:
    return {
        "event": event,
        # Its screen tables' players point at who won each game (tables.writes.game_claims).
        "claims_games": event.on_screens and uses_scoring_clause(event),
        "radar": build_radar(event),
        "radar_form": form or RadarForm(instance=event),
        "radar_refresh": RADAR_REFRESH_SECONDS,
    }


@require_GET
@event_view()
def radar_panel(request: HttpRequest, event: Event) -> HttpResponse:
    return render(request, "organizer/_radar.html", radar_context(event))


@get_goes_to(lambda pk: console_url(pk, "radar"))
@event_view()
def radar_settings(request: HttpRequest, event: Event) -> HttpResponse:
    form = RadarForm(request.POST, instance=event)
    if form.is_valid():
        if form.changed_data:
            form.save()  # the console's own panel; no other screen shows the thresholds
        messages.success(request, _("Radar thresholds saved."))
    else:
        messages.error(
            request,
            _("The thresholds were not saved: %(errors)s")
            % {"errors": "; ".join(str(e) for errors in form.errors.values() for e in errors)},
        )
    return back_to(request, console_url(event, "radar"))
