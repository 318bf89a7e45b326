"""QR codes as inline SVG: sized by CSS, safe to inline many times, and encoding the URL."""

from __future__ import annotations

import re

import qrcode
import qrcode.constants

from tests.matching import search
from tournament.common.qr import QUIET_ZONE_MODULES, qr_svg, wifi_payload

URL = "http://192.168.1.20:8000/t/pVh1mQ0n0Jx7Zq2c3Yb9sW4kL8dE5fGh/"


def dark_modules(svg: str) -> set[tuple[int, int]]:
    """The dark squares the SVG path draws, as (column, row) including the quiet zone."""
    path = search(r' d="([^"]+)"', svg)[1]
    return {(int(x), int(y)) for x, y in re.findall(r"M(\d+),(\d+)H", path)}


def expected_modules(url: str) -> set[tuple[int, int]]:
    code = qrcode.QRCode(
        error_correction=qrcode.constants.ERROR_CORRECT_Q, border=QUIET_ZONE_MODULES
    )
    code.add_data(url)
    code.make(fit=True)
    return {(x, y) for y, row in enumerate(code.get_matrix()) for x, dark in enumerate(row) if dark}


def test_the_svg_draws_exactly_the_qr_code_of_the_url():
    assert dark_modules(qr_svg(URL)) == expected_modules(URL)


def test_different_urls_give_different_codes():
    assert dark_modules(qr_svg(URL)) != dark_modules(qr_svg(URL.replace("pVh1", "pVh2")))


def test_the_svg_is_inline_markup_sized_by_css():
    svg = str(qr_svg(URL))

    assert svg.startswith("<svg ")
    assert "<?xml" not in svg
    assert re.search(r'viewBox="0 0 (\d+) \1"', svg)
    assert not re.search(r"\s(width|height)=", svg)
    assert "svg:" not in svg


def test_many_codes_on_one_page_do_not_repeat_an_id():
    assert " id=" not in str(qr_svg(URL))


def test_the_label_is_the_accessible_name_and_is_escaped():
    svg = str(qr_svg(URL, label='Table 3 <script>"'))
    assert 'aria-label="Table 3 &lt;script&gt;&quot;"' in svg
    assert 'role="img"' in svg


# --- Wi-Fi codes -------------------------------------------------------------------------


def test_a_wifi_code_escapes_its_special_characters():
    assert wifi_payload("Café", "secret123") == "WIFI:T:WPA;S:Café;P:secret123;;"
    assert wifi_payload('a\\b;c,d:e"f', "p;w") == r"WIFI:T:WPA;S:a\\b\;c\,d\:e\"f;P:p\;w;;"
    assert wifi_payload("Open", "", "nopass") == "WIFI:T:nopass;S:Open;;"
    assert wifi_payload("Open", "") == "WIFI:T:nopass;S:Open;;"
    assert wifi_payload("Old", "12345", "WEP") == "WIFI:T:WEP;S:Old;P:12345;;"
