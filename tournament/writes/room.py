"""Saving an event's room settings: the address the QR codes use and the hotspot's Wi-Fi.

Terms:
    room settings  the event's own row (tournament.models.RoomSettings); the first change
                   saves it, starting from what the event carried over
                   (tournament.reads.room: event's room).
    welcome screens the projectors and consoles of the organizer's events still in setup
                   that show these settings: the event itself, and those carrying them
                   over. A change bumps their version and their polls fetch the new
                   screen (Event.version only: the phones show neither, and keep
                   answering 304). Another organizer's events are never touched.

Each write locks the event's row first, then saves its room settings, in one transaction.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import F, Q

from tournament.models import Event, Phase, RoomSettings, WifiSecurity
from tournament.reads.room import room_settings


def _bump_welcome_screens(event: Event) -> None:
    carrying_over = Q(owner_id=event.owner_id, room_settings__isnull=True)
    Event.objects.filter(
        Q(pk=event.pk) | carrying_over, phase=Phase.SETUP, finished_at__isnull=True
    ).update(version=F("version") + 1)


def _locked_settings(event: Event) -> RoomSettings:
    Event.objects.select_for_update().filter(pk=event.pk).first()
    return room_settings(event)  # saved by the caller: its own row from now on


@transaction.atomic
def choose_phone_address(*, event: Event, address: str) -> RoomSettings:
    """Keep ``address`` as the one the event's QR codes and phone links use; "" = automatic."""
    room = _locked_settings(event)
    room.phone_address = address or None
    room.save()
    _bump_welcome_screens(event)
    return room


@transaction.atomic
def save_hotspot(*, event: Event, name: str, password: str, security: str) -> RoomSettings:
    """Keep the event's hotspot Wi-Fi; an empty password makes it an open network."""
    room = _locked_settings(event)
    room.wifi_name = name
    room.wifi_password = "" if security == WifiSecurity.OPEN else password
    room.wifi_security = security if room.wifi_password else WifiSecurity.OPEN
    room.save()
    _bump_welcome_screens(event)
    return room


@transaction.atomic
def clear_hotspot(*, event: Event) -> RoomSettings:
    """Forget the event's hotspot: no Wi-Fi code any more."""
    room = _locked_settings(event)
    room.wifi_name = room.wifi_password = ""
    room.wifi_security = WifiSecurity.WPA
    room.save()
    _bump_welcome_screens(event)
    return room
