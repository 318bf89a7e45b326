"""The address that phones on the venue's network should use, and the names this server
answers to.

Terms:
    LAN address      an IPv4 address of this machine that other devices on its network can
                     reach: not loopback, link-local or unspecified.
    interface        the network adapter an address belongs to ("eth0", "wlan0", "tun0"),
                     named where the system tells it cheaply (Linux); elsewhere unknown ("").
    automatic choice the LAN address the routing table picks (the default route's), else
                     the first one found.
    chosen address   the LAN address the organizer picked on the console for the QR codes
                     (tournament.models.RoomSettings); it counts only while this machine
                     still has it (a laptop moved to another network falls back).
    public base URL  scheme, host and port that a phone scanning a table's QR code can
                     reach: FIVETRICKS_PUBLIC_URL when set, else the chosen address, else
                     the automatic choice, with the port the server listens on
                     (settings.PORT, which `manage.py serve` passes to its workers as
                     FIVETRICKS_PORT). It never comes from a
                     request's Host header: whoever sends the request chooses that header,
                     and a forged one would end up printed in every QR code.
    loopback only    no LAN address was found: the laptop is on no network, so links would
                     point at 127.0.0.1, which phones cannot reach (address_warning).

Every method here works on Linux, macOS and Windows alike and sends no traffic.
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
import struct
import sys
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.translation import gettext as _

if TYPE_CHECKING:
    from django.http import HttpRequest

LOOPBACK_NAMES = {"localhost", "127.0.0.1", "[::1]", "::1", "0.0.0.0"}

# connect() on a UDP socket sends nothing: it only asks the routing table which local
# address would be used. TEST-NET-1 (RFC 5737) is never a real host, so the answer is the
# address of the default route, the one a router hands out to the venue's phones too.
ROUTE_PROBE = ("192.0.2.1", 80)
# Without a default route (a venue router with no internet uplink, a laptop hotspot) the
# routing table still knows the directly attached private networks.
PRIVATE_PROBES = (("192.168.0.1", 80), ("10.0.0.1", 80), ("172.16.0.1", 80))
# Detection is cheap but runs while requests wait (ALLOWED_HOSTS, QR codes); a laptop that
# joins the venue's Wi-Fi after the server started is picked up within this many seconds.
RECHECK_SECONDS = 10.0


def _usable(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return ip.version == 4 and not (ip.is_loopback or ip.is_link_local or ip.is_unspecified)


def _routed_address(probe: tuple[str, int]) -> str | None:
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            sock.connect(probe)
            return sock.getsockname()[0]
    except OSError:
        return None


def _hostname_addresses() -> list[str]:
    with contextlib.suppress(OSError, UnicodeError):
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
        return [str(info[4][0]) for info in infos]  # AF_INET's is (host, port)
    return []


# Linux's ioctl that reads an interface's IPv4 address (<linux/sockios.h>).
SIOCGIFADDR = 0x8915


def _interface_address(sock: socket.socket, name: str) -> str | None:
    import fcntl  # not on Windows; only called on Linux

    with contextlib.suppress(OSError, ValueError):
        packed = fcntl.ioctl(sock.fileno(), SIOCGIFADDR, struct.pack("256s", name.encode()[:15]))
        return socket.inet_ntoa(packed[20:24])
    return None


def detect_interfaces() -> dict[str, str]:
    """Each usable IPv4 address of this machine's interfaces with the interface's name, on
    Linux (one ioctl per interface, no traffic); empty elsewhere, where the probes and the
    machine's name still find the addresses, unnamed."""
    if not sys.platform.startswith("linux") or not hasattr(socket, "if_nameindex"):
        return {}
    found: dict[str, str] = {}
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        for _index, name in socket.if_nameindex():
            address = _interface_address(sock, name)
            if address and _usable(address):
                found.setdefault(address, name)
    return found


def detect_lan_addresses() -> list[str]:
    """This machine's LAN addresses, best guess first: the routing table's choice, then
    what the machine's own name resolves to, then routes to private networks, then every
    other interface's address (a VPN, a second adapter)."""
    found = [_routed_address(ROUTE_PROBE), *_hostname_addresses()]
    found.extend(_routed_address(probe) for probe in PRIVATE_PROBES)
    found.extend(detect_interfaces())
    return list(dict.fromkeys(a for a in found if a and _usable(a)))


_last_detection: tuple[float, tuple[str, ...]] = (float("-inf"), ())
_last_interfaces: tuple[float, dict[str, str]] = (float("-inf"), {})


def lan_addresses() -> list[str]:
    """detect_lan_addresses(), reused for RECHECK_SECONDS."""
    global _last_detection
    checked_at, addresses = _last_detection
    now = time.monotonic()
    if now - checked_at >= RECHECK_SECONDS:
        addresses = tuple(detect_lan_addresses())
        _last_detection = (now, addresses)
    return list(addresses)


def interface_names() -> dict[str, str]:
    """detect_interfaces(), reused for RECHECK_SECONDS: the interface of each address."""
    global _last_interfaces
    checked_at, names = _last_interfaces
    now = time.monotonic()
    if now - checked_at >= RECHECK_SECONDS:
        names = detect_interfaces()
        _last_interfaces = (now, names)
    return dict(names)


def forget_lan_addresses() -> None:
    """Detect again on the next call (the network changed, or a test changed it)."""
    global _last_detection, _last_interfaces
    _last_detection = (float("-inf"), ())
    _last_interfaces = (float("-inf"), {})


def machine_names() -> list[str]:
    """The names phones may type for this machine: its host name and its mDNS (.local) form."""
    name = socket.gethostname().strip().lower().rstrip(".")
    if not name:
        return []
    return list(dict.fromkeys([name, name if name.endswith(".local") else f"{name}.local"]))


def is_loopback_host(host: str) -> bool:
    return host in LOOPBACK_NAMES or host.startswith("127.") or host.endswith(".localhost")


def lan_base_url(port: int, chosen: str = "") -> str:
    """http://<address>:<port> for the chosen address while this machine has it, else
    for the automatic choice (127.0.0.1 when there is no LAN address)."""
    addresses = lan_addresses()
    automatic = addresses[0] if addresses else "127.0.0.1"
    host = chosen if chosen and chosen in addresses else automatic
    return f"http://{host}:{port}"


def phone_base_url(port: int | None = None, chosen: str = "") -> str:
    """The public base URL; ``port`` is where this server listens (default settings.PORT),
    ``chosen`` the organizer's pick (see Terms). tournament.reads.room passes the pick."""
    if settings.PUBLIC_URL:
        return settings.PUBLIC_URL
    return lan_base_url(settings.PORT if port is None else port, chosen)


def address_warning(port: int | None = None) -> str | None:
    """What to tell the organizer when phones could not open the links this server prints,
    or None when they can (as far as this machine can tell)."""
    if settings.PUBLIC_URL:
        if not is_loopback_host(urlsplit(settings.PUBLIC_URL).hostname or ""):
            return None
        return _(
            "FIVETRICKS_PUBLIC_URL is %(url)s, a loopback address, which phones cannot "
            "reach. Set it to the address phones use, e.g. http://192.168.1.20:8000, and "
            "restart the server."
        ) % {"url": settings.PUBLIC_URL}
    if lan_addresses():
        return None
    return _(
        "This laptop has no network address, only loopback (%(url)s), which phones cannot "
        "reach: QR codes and links would lead nowhere. Join the venue's Wi-Fi (the address "
        "is checked again every few seconds), or set FIVETRICKS_PUBLIC_URL to the address "
        "phones use, e.g. FIVETRICKS_PUBLIC_URL=http://192.168.1.20:8000, and restart the "
        "server."
    ) % {"url": phone_base_url(port)}


def address_context(request: HttpRequest) -> dict[str, object]:
    """Context processor for templates/_address_warning.html. It hands over the function,
    not its result: only the pages that include the warning pay for the check."""
    return {"address_warning": address_warning}


def default_allowed_hosts(public_url: str) -> list[str]:
    """The names a request may carry in its Host header when DJANGO_ALLOWED_HOSTS is unset:
    this machine's loopback names, its names and addresses, and the public URL's host.
    Django's test runner adds 'testserver' itself."""
    hosts = ["localhost", "127.0.0.1", "[::1]", *machine_names(), *lan_addresses()]
    if public_host := urlsplit(public_url).hostname:
        hosts.append(f"[{public_host}]" if ":" in public_host else public_host)
    return list(dict.fromkeys(hosts))


class AllowedHosts(list):
    """ALLOWED_HOSTS that also admits the LAN addresses this machine has now, so a laptop
    that joins the venue's Wi-Fi after starting the server answers phones at its new
    address. Django reads ALLOWED_HOSTS by iterating over it."""

    def __iter__(self) -> Iterator[str]:
        yield from super().__iter__()
        yield from (a for a in lan_addresses() if not list.__contains__(self, a))
