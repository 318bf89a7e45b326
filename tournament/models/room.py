"""The room's network settings, one row for the whole installation.

Terms:
    room settings  what the organizer sets once for the room rather than for one event:
                   the address the QR codes use and the hotspot's Wi-Fi. One row
                   (pk 1), kept in the database so that every app server on one database
                   reads the same choice and it survives restarts.
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

ROOM_SETTINGS_PK = 1
# IEEE 802.11: an SSID is at most 32 bytes; a WPA passphrase is 8 to 63 characters.
WIFI_NAME_MAX_LENGTH = 32
WIFI_PASSWORD_MAX_LENGTH = 63


class WifiSecurity(models.TextChoices):
    """The T: field of a Wi-Fi QR code."""

    WPA = "WPA", _("WPA or WPA2 (most networks)")
    WEP = "WEP", _("WEP (old networks)")
    OPEN = "nopass", _("Open network (no password)")


class RoomSettingsQuerySet(models.QuerySet["RoomSettings"]):
    def current(self) -> RoomSettings:
        """The installation's settings in one query; unsaved defaults when never set."""
        return self.filter(pk=ROOM_SETTINGS_PK).first() or RoomSettings(pk=ROOM_SETTINGS_PK)


class RoomSettings(models.Model):
    """The one row of room settings (see Terms); tournament.writes.room saves it."""

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
        constraints = [
            models.CheckConstraint(
                condition=models.Q(pk=ROOM_SETTINGS_PK), name="room_settings_single_row"
            ),
        ]

    def __str__(self) -> str:
        return str(self._meta.verbose_name)

    @property
    def has_hotspot(self) -> bool:
        return bool(self.wifi_name)
