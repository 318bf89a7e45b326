"""The phone page is light enough for bad Wi-Fi: at most 30 KB compressed, everything it
loads included (HTML, htmx, scripts, style sheets), measured as the server sends it.

HTML goes through GZipMiddleware. Static files are served as `manage.py serve`'s workers
serve them: collected once per session by the project's storage (our scripts and style
sheets minified, then gzipped beside: tournament.staticfiles) into a folder of the test's
own, which WhiteNoise then serves instead of the sources, sending the .gz it finds.
"""

from __future__ import annotations

import gzip
import re

import pytest
from django.core.management import call_command
from django.test import override_settings
from django.urls import reverse

from tests import factories
from tests.factories import table

pytestmark = pytest.mark.django_db

BUDGET_BYTES = 30 * 1024
GZIP = {"HTTP_ACCEPT_ENCODING": "gzip"}


@pytest.fixture(scope="session")
def collected_static(tmp_path_factory):
    """STATIC_ROOT as `manage.py serve` fills it, in a folder of this session's own."""
    static_root = tmp_path_factory.mktemp("collected-static")
    with override_settings(STATIC_ROOT=static_root):
        call_command("collectstatic", interactive=False, verbosity=0)
    return static_root


@pytest.fixture(autouse=True)
def served_as_collected(settings, collected_static):
    """WhiteNoise serves the collected files, as the real server's workers do."""
    settings.STATIC_ROOT = collected_static
    settings.WHITENOISE_USE_FINDERS = False


def _body(response) -> bytes:
    if response.streaming:
        return b"".join(response.streaming_content)
    return response.content


def sent_bytes(response) -> int:
    """Bytes on the wire for a 200 answer: the body the server sent, as it sent it."""
    assert response.status_code == 200, response
    return len(_body(response))


def page_weight(client, url: str) -> dict[str, int]:
    """Compressed size of the page and of every asset it references, by URL."""
    page = client.get(url, **GZIP)
    assert page.get("Content-Encoding") == "gzip", "HTML should be compressed"
    html = gzip.decompress(_body(page)).decode()
    assert "http://" not in html, "no external requests"
    assert "https://" not in html, "no external requests"
    assets = re.findall(r'<script[^>]+src="([^"]+)"', html) + re.findall(
        r'<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"', html
    )
    sizes = {url: len(_body(page))}
    for asset in assets:
        served = client.get(asset, **GZIP)
        assert served.get("Content-Encoding") == "gzip", f"{asset} should be sent gzipped"
        sizes[asset] = sent_bytes(served)
    return sizes


def six_at_a_table(organizer):
    names = [
        "Anne-Charlotte Vandenberghe",
        "Bartholomew Okonkwo-Smith",
        "Célestine Montgomery",
        "Dmitri Alexandrovich",
        "Evangelina Fitzgerald",
        "Fernando Albuquerque",
    ]
    return factories.seated_event(owner=organizer, players=names, tables=1)


def assert_within_budget(sizes: dict[str, int]) -> None:
    total = sum(sizes.values())
    listing = ", ".join(f"{url.rsplit('/', 1)[-1] or url}={size}" for url, size in sizes.items())
    print(f"\nphone page weight: {total} bytes compressed ({listing})")
    assert any("htmx" in url for url in sizes), "htmx must be counted"
    assert total <= BUDGET_BYTES, f"{total} bytes > {BUDGET_BYTES}: {listing}"


def test_the_study_page_with_its_full_rule_sheet_fits_the_budget(client, organizer):
    event = factories.play_until(six_at_a_table(organizer), "study")
    assert_within_budget(page_weight(client, reverse("phone:table", args=[table(event, 1).token])))


def test_a_busy_round_page_fits_the_budget(client, organizer):
    event = factories.start_rounds(six_at_a_table(organizer))
    players = list(event.players.all())
    for game in range(20):
        factories.report(event, 1, players[game % len(players)])

    url = reverse("phone:table", args=[table(event, 1).token])
    assert_within_budget(page_weight(client, url))


def test_the_players_page_fits_the_budget(client, organizer):
    event = factories.start_rounds(six_at_a_table(organizer))
    client.post(
        reverse("phone:player_pick", args=[event.players_token]),
        {"player": event.players.first().pk},
    )
    url = reverse("phone:player_home", args=[event.players_token])
    assert_within_budget(page_weight(client, url))
