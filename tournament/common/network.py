"""The address that phones on the venue's network should use.

Terms: the *public base URL* is scheme, host and port that a phone scanning a table's QR
code can reach. It is never `localhost`: a laptop that browses its own console at
localhost still prints QR codes with its LAN address.
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
import subprocess

from django.conf import settings
from django.http import HttpRequest

LOOPBACK_NAMES = {"localhost", "127.0.0.1", "[::1]", "::1", "0.0.0.0"}


def _usable(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return ip.version == 4 and not (ip.is_loopback or ip.is_link_local or ip.is_unspecified)


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses on its networks, best guess first (no traffic sent)."""
    found: list[str] = []
    try:
        output = subprocess.run(
            ["hostname", "-I"], capture_output=True, text=True, timeout=2, check=False
        ).stdout
        found.extend(a for a in output.split() if _usable(a))
    except (OSError, subprocess.SubprocessError):
        pass
    with contextlib.suppress(OSError):
        found.extend(a for a in socket.gethostbyname_ex(socket.gethostname())[2] if _usable(a))
    return list(dict.fromkeys(found))


def lan_base_url(port: int) -> str:
    addresses = lan_addresses()
    host = addresses[0] if addresses else "127.0.0.1"
    return f"http://{host}:{port}"


def public_base_url(request: HttpRequest) -> str:
    """Base URL for links that phones open, e.g. in QR codes."""
    if settings.PUBLIC_URL:
        return settings.PUBLIC_URL
    host = request.get_host()
    hostname, _, port = host.rpartition(":") if host.count(":") == 1 else (host, "", "")
    if hostname in LOOPBACK_NAMES or host in LOOPBACK_NAMES:
        return lan_base_url(int(port or request.get_port()))
    return f"{request.scheme}://{host}"
