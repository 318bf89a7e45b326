"""QR codes as inline SVG, for the printed table kit and the projector.

Terms:
    QR code   a square of dark and light *modules* that a phone camera reads as a URL.
    inline    the <svg> element goes straight into the HTML (no image file, no request),
              sized by CSS through its viewBox, so it prints sharp at any size.
    quiet zone the light margin around the code that cameras need to find it; kept at
              two modules, which is enough on white paper.
    Wi-Fi code a QR code whose text is ``WIFI:T:<security>;S:<name>;P:<password>;;``
              (wifi_payload): a phone's camera offers to join that network.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import qrcode
import qrcode.constants
from django.utils.safestring import SafeString, mark_safe
from qrcode.image.svg import SvgPathImage

SVG_NAMESPACE = "http://www.w3.org/2000/svg"
QUIET_ZONE_MODULES = 2


def qr_svg(url: str, *, label: str = "") -> SafeString:
    """An inline <svg> QR code for ``url``, without XML declaration or fixed size.

    Error correction "Q" survives a quarter of the code smudged or folded, which is what
    a card on a busy card table needs. ``label`` becomes the SVG's accessible name.
    """
    code = qrcode.QRCode(
        error_correction=qrcode.constants.ERROR_CORRECT_Q,
        border=QUIET_ZONE_MODULES,
        image_factory=SvgPathImage,
    )
    code.add_data(url)
    code.make(fit=True)
    svg = ET.fromstring(code.make_image().to_string(encoding="unicode"))
    # Width and height in mm would fix the printed size; the viewBox alone lets CSS size it.
    for attribute in ("width", "height", "version"):
        svg.attrib.pop(attribute, None)
    svg.set("xmlns", SVG_NAMESPACE)
    svg.set("class", "qr")
    svg.set("shape-rendering", "crispEdges")
    if label:
        svg.set("role", "img")
        svg.set("aria-label", label)
    for element in svg.iter():
        # Plain tag names: inside HTML an <svg> is SVG without prefixes ("svg:path").
        element.tag = element.tag.rpartition("}")[2]
        # The factory names every path "qr-path"; several codes on one page would clash.
        element.attrib.pop("id", None)
    # ElementTree escapes the label, so a URL or label cannot break out of the markup.
    return mark_safe(ET.tostring(svg, encoding="unicode"))


# The characters a WIFI: code's fields escape with a backslash (the ZXing format phones read).
WIFI_SPECIAL = '\\;,:"'


def _wifi_escaped(text: str) -> str:
    return "".join(f"\\{c}" if c in WIFI_SPECIAL else c for c in text)


def wifi_payload(name: str, password: str, security: str = "WPA") -> str:
    """The text of a Wi-Fi QR code, ``WIFI:T:WPA;S:<name>;P:<password>;;``: phone cameras
    offer to join the network it names. An open network ("nopass") has no password."""
    if security == "nopass" or not password:
        return f"WIFI:T:nopass;S:{_wifi_escaped(name)};;"
    return f"WIFI:T:{security};S:{_wifi_escaped(name)};P:{_wifi_escaped(password)};;"
