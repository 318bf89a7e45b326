"""Saving the room settings: the address the QR codes use and the hotspot's Wi-Fi.

Terms:
    room settings  the installation's one row (tournament.models.RoomSettings).
    welcome screens the projectors and consoles of events still in setup: they show the
                   address and the Wi-Fi code, so a change bumps those events' version and
                   their polls fetch the new screen (Event.version only: the phones show
                   neither, and keep answering 304).

These writes change no event's rows but its version, so they lock no event: the room
settings row is the one they write, inside one transaction.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import F

from tournament.models import Event, Phase, RoomSettings, WifiSecurity
from tournament.models.room import ROOM_SETTINGS_PK


def _bump_welcome_screens() -> None:
    Event.objects.filter(phase=Phase.SETUP, finished_at__isnull=True).update(
        version=F("version") + 1
    )


def _locked_settings() -> RoomSettings:
    room, _created = RoomSettings.objects.select_for_update().get_or_create(pk=ROOM_SETTINGS_PK)
    return room


@transaction.atomic
def choose_phone_address(*, address: str) -> RoomSettings:
    """Keep ``address`` as the one QR codes and phone links use; "" = automatic."""
    room = _locked_settings()
    room.phone_address = address or None
    room.save(update_fields=["phone_address", "updated_at"])
    _bump_welcome_screens()
    return room


@transaction.atomic
def save_hotspot(*, name: str, password: str, security: str) -> RoomSettings:
    """Keep the hotspot's Wi-Fi; an empty password makes it an open network."""
    room = _locked_settings()
    room.wifi_name = name
    room.wifi_password = "" if security == WifiSecurity.OPEN else password
    room.wifi_security = security if room.wifi_password else WifiSecurity.OPEN
    room.save(update_fields=["wifi_name", "wifi_password", "wifi_security", "updated_at"])
    _bump_welcome_screens()
    return room


@transaction.atomic
def clear_hotspot() -> RoomSettings:
    """Forget the hotspot: no Wi-Fi code any more."""
    room = _locked_settings()
    room.wifi_name = room.wifi_password = ""
    room.wifi_security = WifiSecurity.WPA
    room.save(update_fields=["wifi_name", "wifi_password", "wifi_security", "updated_at"])
    _bump_welcome_screens()
    return room
