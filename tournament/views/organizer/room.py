"""The console's Room section: the address the QR codes and phone links use, and the
hotspot's Wi-Fi, set by the organizer for this event.

Terms:
    room section  #room on the console (templates/organizer/event.html, partial room):
                  the address picker and the hotspot form (tournament.reads.room reads
                  them, tournament.writes.room saves them). Plain forms: they post and
                  come back without JavaScript too.
    organizer only
                  co-facilitators never see the section and its actions answer them 404
                  (tournament.views.access: organizer only): the address decides where
                  every phone in the room goes.

They change this event's room settings only (tournament.models.room): another
organizer's events never show them, and the organizer's next event starts from them. A
finished event's console, read-only, leaves them out (and refuses them, as any change).
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _

from tournament.common.requests import HtmxRequest
from tournament.forms.room import HotspotForm, PhoneAddressForm
from tournament.models import Event
from tournament.reads.room import address_picker, phone_base_url, room_settings
from tournament.views.access import event_view
from tournament.views.organizer.answers import console_url, get_goes_to, refused_form
from tournament.views.organizer.console import console_context
from tournament.writes.room import choose_phone_address, clear_hotspot, save_hotspot


def _back(event: Event) -> HttpResponse:
    return redirect(console_url(event, "room"))


@get_goes_to(lambda pk: console_url(pk, "room"))
@event_view(organizer_only=True)
def room_address(request: HttpRequest, event: Event) -> HttpResponse:
    picker = address_picker(room_settings(event))
    if picker.fixed_by_setting:
        messages.error(
            request, _("FIVETRICKS_PUBLIC_URL sets the address: it cannot be changed here.")
        )
        return _back(event)
    form = PhoneAddressForm(request.POST, addresses=[o.address for o in picker.options])
    if not form.is_valid():
        messages.error(request, " ".join(str(e) for e in form.errors.get("address", [])))
        return _back(event)
    room = choose_phone_address(event=event, address=form.cleaned_data["address"])
    done = (
        _(
            "QR codes and players' links now use %(url)s. Share the players' links again "
            "if you sent them."
        )
        if event.on_screens
        else _("QR codes and phone links now use %(url)s. Print the kit again if it is printed.")
    )
    messages.success(request, done % {"url": phone_base_url(room=room)})
    return _back(event)


@get_goes_to(lambda pk: console_url(pk, "room"))
@event_view(organizer_only=True)
def room_hotspot(request: HtmxRequest, event: Event) -> HttpResponse:
    if request.POST.get("action") == "clear":
        clear_hotspot(event=event)
        messages.success(request, _("Wi-Fi removed: no Wi-Fi QR code any more."))
        return _back(event)
    form = HotspotForm(request.POST)
    if not form.is_valid():
        return refused_form(
            request,
            "organizer/event.html",
            console_context(request, event, hotspot_form=form),
            page_url=console_url(event, "room"),
        )
    room = save_hotspot(
        event=event,
        name=form.cleaned_data["wifi_name"],
        password=form.cleaned_data["wifi_password"],
        security=form.cleaned_data["wifi_security"],
    )
    messages.success(
        request,
        _("Wi-Fi %(name)s saved: its QR code is on the projector's welcome screen and the kit.")
        % {"name": room.wifi_name},
    )
    return _back(event)
