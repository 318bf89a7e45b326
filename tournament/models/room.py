"""The room's network settings, one row per event.

Terms:
    room settings  what the organizer sets for the room the event is played in: the
                   address the QR codes use and the hotspot's Wi-Fi. One row per event,
                   never shared with another organizer's events (a hosted server has
                   several organizers: one's Wi-Fi must not reach another's projector).
                   Kept in the database so that every app server on one database reads
                   the same choice and it survives restarts.
    carried over   an event without its own row reads its organizer's latest saved one
                   (on a laptop, a new event starts from the last event's settings);
                   its first change saves its own row (tournament.writes.room).
    chosen address the LAN address picked on the console for the QR codes and phone links
                   (tournament.common.network: chosen address); blank = automatic.
    hotspot        the Wi-Fi network the phones should join (often the facilitator's own,
                   as venue Wi-Fi may keep phones from reaching the laptop). Its name
                   (SSID) and password become a Wi-Fi QR code on the projector's welcome
                   screen and the kit. A blank name = no hotspot.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

# IEEE 802.11: an SSID is at most 32 bytes; a WPA passphrase is 8 to 63 characters.
WIFI_NAME_MAX_LENGTH = 32
WIFI_PASSWORD_MAX_LENGTH = 63


class WifiSecurity(models.TextChoices):
    """The T: field of a Wi-Fi QR code."""

    WPA = "WPA", _("WPA or WPA2 (most networks)")
    WEP = "WEP", _("WEP (old networks)")
    OPEN = "nopass", _("Open network (no password)")


class RoomSettingsQuerySet(models.QuerySet["RoomSettings"]):
    def latest_first(self) -> RoomSettingsQuerySet:
        return self.order_by("-updated_at", "-pk")


class RoomSettings(models.Model):
    """An event's room settings (see Terms); tournament.writes.room saves them."""

    event = models.OneToOneField(
        "tournament.Event", on_delete=models.CASCADE, related_name="room_settings"
    )
    phone_address = models.GenericIPAddressField(protocol="IPv4", null=True, blank=True)
    wifi_name = models.CharField(max_length=WIFI_NAME_MAX_LENGTH, blank=True)
    wifi_password = models.CharField(max_length=WIFI_PASSWORD_MAX_LENGTH, blank=True)
    wifi_security = models.CharField(
        max_length=8, choices=WifiSecurity.choices, default=WifiSecurity.WPA
    )
    updated_at = models.DateTimeField(auto_now=True)

    objects = RoomSettingsQuerySet.as_manager()

    class Meta:
        verbose_name = _("room settings")
        verbose_name_plural = _("room settings")

    def __str__(self) -> str:
        return str(self._meta.verbose_name)

    @property
    def has_hotspot(self) -> bool:
        return bool(self.wifi_name)
