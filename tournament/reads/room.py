"""What the screens read of the room settings: the address phones use, the console's
address picker, and the hotspot's Wi-Fi QR code.

Terms:
    event's room    the room settings an event's pages show: its own row, else its
                    organizer's latest (tournament.models.room: carried over), else the
                    defaults; never another organizer's.
    serving room    what pages of no event show (serve's banner, the window, a sign-in
                    link): the given organizer's latest room settings, or with none given
                    the installation's latest (a laptop has one organizer).
    phone base URL  tournament.common.network's public base URL, with the organizer's
                    chosen address (tournament.models.RoomSettings) passed in: one query.
    address picker  the console's list of this machine's LAN addresses, each with its
                    interface when known, the one in use marked; fixed when
                    FIVETRICKS_PUBLIC_URL is set (it always wins).
    lost choice     a chosen address this machine no longer has (the laptop moved to
                    another network): links fall back to the automatic choice, and the
                    picker says so.
    Wi-Fi join      the hotspot as phones need it: its name, its password, and a QR code
                    in the standard WIFI: format that joins a phone in one scan.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.models import User
from django.db.models import Case, Value, When
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from tournament.common import network
from tournament.common.qr import qr_svg, wifi_payload
from tournament.models import Event, RoomSettings, WifiSecurity

# What an event carries over from its organizer's latest room settings.
ROOM_FIELDS = ("phone_address", "wifi_name", "wifi_password", "wifi_security")


def room_settings(event: Event | None = None, *, organizer: User | None = None) -> RoomSettings:
    """The event's room (see Terms), or with no event the serving room, in one query. A
    carried-over or default one is unsaved, with its event set."""
    rows = RoomSettings.objects.latest_first()
    if event is None:
        if organizer is not None:
            rows = rows.filter(event__owner=organizer)
        return rows.first() or RoomSettings()
    own = Case(When(event_id=event.pk, then=Value(0)), default=Value(1))
    found = rows.filter(event__owner_id=event.owner_id).order_by(own, "-updated_at").first()
    if found is not None and found.event_id == event.pk:
        return found
    carried = RoomSettings(event=event)
    if found is not None:
        for field in ROOM_FIELDS:
            setattr(carried, field, getattr(found, field))
    return carried


def phone_base_url(port: int | None = None, room: RoomSettings | None = None) -> str:
    """The base URL of every link phones open (QR codes, the kit, the banner): one query
    for the serving room's choice unless ``room`` (an event's, as a rule) is given."""
    room = room or room_settings()
    return network.phone_base_url(port, room.phone_address or "")


@dataclass(frozen=True)
class AddressOption:
    address: str
    interface: str
    automatic: bool  # the one used when nothing is chosen


@dataclass(frozen=True)
class AddressPicker:
    base_url: str  # what the QR codes use now
    options: list[AddressOption]
    chosen: str  # the stored choice ("" = automatic)
    fixed_by_setting: bool  # FIVETRICKS_PUBLIC_URL is set: no choice to make
    lost_choice: bool  # chosen, but no longer on this machine

    @property
    def selected(self) -> str:
        """What the picker's radio buttons mark: the choice, or automatic ("")."""
        return "" if self.lost_choice else self.chosen


def address_picker(room: RoomSettings) -> AddressPicker:
    """The console's address picker (see Terms) for the event's ``room``."""
    chosen = room.phone_address or ""
    addresses = network.lan_addresses()
    names = network.interface_names()
    options = [
        AddressOption(address, names.get(address, ""), automatic=index == 0)
        for index, address in enumerate(addresses)
    ]
    return AddressPicker(
        base_url=network.phone_base_url(None, chosen),
        options=options,
        chosen=chosen,
        fixed_by_setting=bool(settings.PUBLIC_URL),
        lost_choice=bool(chosen) and chosen not in addresses,
    )


@dataclass(frozen=True)
class WifiJoin:
    name: str
    password: str
    security: str
    qr: SafeString


def wifi_join(room: RoomSettings) -> WifiJoin | None:
    """The hotspot's Wi-Fi QR code and what it says, or None when no hotspot is set."""
    if not room.has_hotspot:
        return None
    password = "" if room.wifi_security == WifiSecurity.OPEN else room.wifi_password
    payload = wifi_payload(room.wifi_name, password, room.wifi_security)
    label = _("Wi-Fi QR code: scan it to join %(name)s") % {"name": room.wifi_name}
    return WifiJoin(room.wifi_name, password, room.wifi_security, qr_svg(payload, label=label))
