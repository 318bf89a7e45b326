"""The phone's script and the server agree on what a quick retap is."""

from __future__ import annotations

import re

from django.conf import settings

from tables.writes import second_taps


def test_the_phones_script_asks_about_a_quick_retap_within_the_same_window():
    """static/js/phone.js asks at the tap and then tells the server it did: both must mean
    the same "a moment later", or a page would count what the server would have asked."""
    script = (settings.BASE_DIR / "static" / "js" / "phone.js").read_text()

    asks_for_ms = int(re.search(r"var RETAP_MS = (\d+);", script)[1])

    assert asks_for_ms == second_taps.RETAP_WINDOW.total_seconds() * 1000
