"""Every answer's headers (the Content-Security-Policy, no-store, the older security
headers), a form body in another charset than UTF-8, answered 400 instead of 500, and the
load balancer's health check."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import uuid
from pathlib import Path
from unittest import mock

import pytest
from django.conf import settings
from django.contrib.sessions.middleware import SessionMiddleware
from django.db import OperationalError, connection
from django.test import Client
from django.urls import reverse

from tables.models import Game, GameReport
from tests import factories
from tests.matching import search
from tournament.middleware import CONTENT_SECURITY_POLICY, HEALTH_PATH
from tournament.models import Phase

pytestmark = pytest.mark.django_db

REPO = Path(__file__).resolve().parents[2]

HTMX = {"HTTP_HX_REQUEST": "true"}
UTF16_FORM = "application/x-www-form-urlencoded; charset=utf-16"


@pytest.fixture
def playing(organizer):
    """Round 1 open, one game reported at table 1."""
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=8, tables=2))
    factories.report(event, 1, factories.seated_names(event, 1)[0])
    return event


def organizer_pages(event) -> dict[str, str]:
    pk = event.pk
    first_player = event.players.order_by("pk").first().pk
    return {
        "events": reverse("organizer:events"),
        "new event": reverse("organizer:event_new"),
        "console": reverse("organizer:event", args=[pk]),
        "console poll": reverse("organizer:event_live", args=[pk]),
        "settings": reverse("organizer:event_settings", args=[pk]),
        "table": reverse("organizer:table", args=[pk, 1]),
        "table poll": reverse("organizer:table_live", args=[pk, 1]),
        "player": reverse("organizer:player", args=[pk, first_player]),
        "corrections": reverse("organizer:corrections", args=[pk]),
        "close page": reverse("organizer:close_round", args=[pk, 1]),
        "close page poll": reverse("organizer:close_round_live", args=[pk, 1]),
        "kit": reverse("kit:event_kit", args=[pk]),
        "event.json": reverse("organizer:event_json", args=[pk]),
        "results.csv": reverse("organizer:results_csv", args=[pk]),
    }


def token_pages(event) -> dict[str, str]:
    token = factories.table(event, 1).token
    return {
        "table phone": reverse("phone:table", args=[token]),
        "table phone poll": reverse("phone:table_live", args=[token]),
        "tricks": reverse("phone:tricks", args=[token]),
        "player pick": reverse("phone:player_home", args=[event.players_token]),
        "player names": reverse("phone:player_names", args=[event.players_token]),
        "projector": reverse("projector:screen", args=[event.projector_token]),
        "ladder": reverse("projector:screen", args=[event.projector_token]) + "?view=ladder",
        "bad table link": reverse("phone:table", args=["no-such-token"]),
    }


def assert_private_page(response, name: str) -> None:
    assert response.status_code in (200, 404), (name, response.status_code)
    assert response["Content-Security-Policy"] == CONTENT_SECURITY_POLICY, name
    assert "no-store" in response["Cache-Control"], name
    assert response["X-Frame-Options"] == "DENY", name
    assert response["X-Content-Type-Options"] == "nosniff", name
    assert response["Referrer-Policy"] == "same-origin", name
    assert response["Cross-Origin-Opener-Policy"] == "same-origin", name


def test_the_policy_allows_this_server_only_and_no_inline_script_style_or_eval():
    rules = dict(rule.split(" ", 1) for rule in CONTENT_SECURITY_POLICY.split("; "))
    assert rules["default-src"] == "'self'"
    assert rules["script-src"] == "'self'"
    assert rules["style-src"] == "'self'"
    assert rules["frame-ancestors"] == "'none'"
    assert rules["object-src"] == "'none'"
    assert rules["base-uri"] == "'none'"
    assert "unsafe" not in CONTENT_SECURITY_POLICY


def test_every_console_page_download_and_poll_is_never_stored(signed_in, playing):
    for name, url in organizer_pages(playing).items():
        assert_private_page(signed_in.get(url), name)
        assert_private_page(signed_in.get(url, **HTMX), f"{name} (htmx)")


def test_every_page_behind_a_token_is_never_stored(client, playing):
    for name, url in token_pages(playing).items():
        assert_private_page(client.get(url), name)
        assert_private_page(client.get(url, **HTMX), f"{name} (htmx)")


def test_a_players_own_page_is_never_stored(client, playing):
    player = factories.seated_players(playing, 1)[0]
    home = reverse("phone:player_home", args=[playing.players_token])
    client.post(reverse("phone:player_pick", args=[playing.players_token]), {"player": player.pk})

    page = client.get(home)

    assert player.name in page.content.decode()
    assert_private_page(page, "player page")
    assert_private_page(
        client.get(reverse("phone:player_live", args=[playing.players_token]), **HTMX),
        "player poll",
    )


def test_the_debrief_pages_are_never_stored(signed_in, organizer):
    event = factories.seated_event(owner=organizer, players=8, tables=2, rounds_planned=1)
    event = factories.play_until(event, Phase.BETWEEN_ROUNDS, by=organizer)
    assert_private_page(
        signed_in.get(reverse("organizer:debrief", args=[event.pk])), "debrief check"
    )
    event = factories.play_until(event, Phase.DEBRIEF, by=organizer)
    assert_private_page(signed_in.get(reverse("organizer:event", args=[event.pk])), "console")
    assert_private_page(
        signed_in.get(reverse("projector:screen", args=[event.projector_token])), "projector"
    )


def test_an_unchanged_poll_still_answers_304_under_no_store(client, playing):
    # poll.js sends the page's data-etag itself: no browser cache takes part, so no-store
    # leaves the 304 path as it was.
    url = reverse("projector:screen", args=[playing.projector_token])
    first = client.get(url, **HTMX)
    etag = first["ETag"]

    again = client.get(url, HTTP_IF_NONE_MATCH=etag, **HTMX)

    assert again.status_code == 304
    assert again.content == b""
    assert "no-store" in again["Cache-Control"]


def test_the_home_page_and_a_missing_page_carry_the_policy(client):
    for url in ("/", "/no-such-page/"):
        response = client.get(url)
        assert response["Content-Security-Policy"] == CONTENT_SECURITY_POLICY, url
        assert "no-store" in response["Cache-Control"], url


def test_what_may_be_cached_keeps_its_own_caching(client):
    icon = client.get("/favicon.ico")
    assert "max-age" in icon["Cache-Control"]
    assert "no-store" not in icon["Cache-Control"]

    script = client.get("/static/js/poll.js")
    assert script.status_code == 200
    assert "no-store" not in script.get("Cache-Control", "")


# --- a form body in another charset ------------------------------------------------------


def test_a_utf16_form_to_a_csrf_protected_page_gets_400_not_500(organizer, event):
    client = Client(enforce_csrf_checks=True, raise_request_exception=False)
    client.force_login(organizer)
    url = reverse("organizer:event_settings", args=[event.pk])
    client.get(url)
    token = client.cookies["csrftoken"].value

    response = client.post(
        url, data=f"csrfmiddlewaretoken={token}&name=Renamed", content_type=UTF16_FORM
    )

    assert response.status_code == 400
    assert "text encoding (utf-16)" in response.content.decode()
    assert response["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
    event.refresh_from_db()
    assert event.name == "Friday workshop"


def test_a_utf16_report_from_a_phone_gets_400_and_stores_nothing(playing):
    client = Client(raise_request_exception=False)
    winner = factories.seated_players(playing, 1)[0]
    url = reverse("phone:report", args=[factories.table(playing, 1).token])
    games, reports = Game.objects.count(), GameReport.objects.count()

    response = client.post(
        url,
        data=f"winner={winner.pk}&round_number=1&game_number=2&client_key={uuid.uuid4().hex}",
        content_type=UTF16_FORM,
    )

    assert response.status_code == 400
    assert "text encoding" in response.content.decode()
    assert (Game.objects.count(), GameReport.objects.count()) == (games, reports)


@pytest.mark.parametrize(
    "content_type",
    [
        "application/x-www-form-urlencoded; charset=latin-1",
        "multipart/form-data; boundary=x; charset=utf-16",
        "application/x-www-form-urlencoded; charset=utf8",  # Django reads "utf-8" only
    ],
)
def test_any_charset_but_utf8_is_refused(playing, content_type):
    client = Client(raise_request_exception=False)
    url = reverse("phone:report", args=[factories.table(playing, 1).token])
    response = client.generic("POST", url, b"winner=1", content_type=content_type)
    assert response.status_code == 400


@pytest.mark.parametrize(
    "content_type",
    [
        "application/x-www-form-urlencoded",
        "application/x-www-form-urlencoded; charset=UTF-8",  # what a browser's XHR sends
        "application/x-www-form-urlencoded; charset=no-such-charset",  # Django ignores it
    ],
)
def test_utf8_forms_are_read_as_before(playing, content_type):
    client = Client(raise_request_exception=False)
    winner = factories.seated_players(playing, 2)[0]
    url = reverse("phone:report", args=[factories.table(playing, 2).token])
    body = f"winner={winner.pk}&round_number=1&game_number=1&client_key={uuid.uuid4().hex}"

    response = client.generic("POST", url, body.encode(), content_type=content_type, **HTMX)

    assert response.status_code == 200
    assert Game.objects.filter(table__event=playing, table__number=2).count() == 1


# --- the markup the policy would refuse --------------------------------------------------

INLINE = {
    "a style attribute": re.compile(r"\sstyle\s*="),
    "a <style> element": re.compile(r"<style\b"),
    "an inline <script>": re.compile(r"<script(?![^>]*\bsrc=)[^>]*>"),
    "an event handler attribute": re.compile(r"\son[a-z]+\s*=", re.IGNORECASE),
    "an hx-on attribute": re.compile(r"\shx-on"),
    "a javascript: URL": re.compile(r"javascript:", re.IGNORECASE),
}


def test_no_template_holds_what_the_policy_refuses():
    templates = sorted((Path(settings.BASE_DIR) / "templates").rglob("*.html"))
    assert len(templates) > 40
    found = [
        f"{path.relative_to(settings.BASE_DIR)}: {what}"
        for path in templates
        for what, pattern in INLINE.items()
        if pattern.search(path.read_text(encoding="utf-8"))
    ]
    assert found == []


# --- the health check ----------------------------------------------------------------------


def test_the_health_check_answers_ok_with_one_query_and_is_never_stored(
    client, django_assert_num_queries
):
    with django_assert_num_queries(1):  # SELECT 1: no session, no write
        response = client.get(HEALTH_PATH)
    assert response.status_code == 200
    assert response.content == b"ok\n"
    assert response["Content-Type"].startswith("text/plain")
    assert "no-store" in response["Cache-Control"]
    assert response.cookies == {}


@pytest.fixture
def database_down(monkeypatch):
    """Every cursor of this thread's connection fails, as with PostgreSQL stopped."""

    def refuse():
        raise OperationalError("connection to server failed: Connection refused")

    monkeypatch.setattr(connection, "cursor", refuse)


def test_the_health_check_answers_503_when_the_database_does_not_answer(client, database_down):
    response = client.get(HEALTH_PATH)
    assert response.status_code == 503
    assert b"database" in response.content
    assert "no-store" in response["Cache-Control"]


def test_the_health_check_takes_any_host(client, settings):
    settings.ALLOWED_HOSTS = ["tricks.example.org"]
    # The balancer asks by the machine's own address, which the site does not answer to.
    assert client.get("/", HTTP_HOST="10.0.0.11:8000").status_code == 400
    assert client.get(HEALTH_PATH, HTTP_HOST="10.0.0.11:8000").status_code == 200


def test_the_health_check_is_not_redirected_to_https_behind_the_proxy(client, settings):
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    assert client.get("/").status_code == 301
    response = client.get(HEALTH_PATH)
    assert response.status_code == 200
    assert "Strict-Transport-Security" not in response


def test_the_health_check_takes_head_and_refuses_other_methods(client):
    head = client.head(HEALTH_PATH)
    assert (head.status_code, head.content) == (200, b"")
    assert client.post(HEALTH_PATH).status_code == 405
    # Its own path only: the home page is still the home page.
    assert client.get(HEALTH_PATH + "/").status_code == 404


CHECK_UNREACHABLE = """
import json, time
import django
django.setup()
from django.test import Client
started = time.monotonic()
response = Client().get("/healthz", HTTP_HOST="10.0.0.11")
print(json.dumps({"status": response.status_code, "seconds": time.monotonic() - started}))
"""


def test_with_postgresql_unreachable_the_health_check_answers_503_at_once(tmp_path):
    """A real PostgreSQL connection to a port where nothing listens: refused, so 503."""
    pytest.importorskip("psycopg")
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "FIVETRICKS_"))},
        "DJANGO_SETTINGS_MODULE": "tournament.settings",
        "FIVETRICKS_DATA_DIR": str(tmp_path),
        "DJANGO_SECRET_KEY": "k" * 50,
        "DATABASE_URL": "postgres://fivetricks@127.0.0.1:9/fivetricks",
    }
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", CHECK_UNREACHABLE],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert '"status": 503' in done.stdout.splitlines()[-1]
    assert time.monotonic() - started < 60
    assert list(tmp_path.iterdir()) == []  # nothing written to the data folder


# --- unchanged polls answered early ---------------------------------------------------------


def _phone_etag(client, event) -> tuple[str, str]:
    live = reverse("phone:table_live", args=[factories.table(event, 1).token])
    page = client.get(live, **HTMX).content.decode()
    return live, search(r'data-etag="([^"]+)"', page)[1].replace("&quot;", '"')


def test_an_unchanged_phone_poll_is_answered_before_sessions_and_the_view(playing):
    client = Client()
    live, etag = _phone_etag(client, playing)
    with mock.patch.object(SessionMiddleware, "process_request", side_effect=AssertionError):
        response = client.get(live, HTTP_IF_NONE_MATCH=etag, **HTMX)
        assert response.status_code == 304
        assert response["ETag"] == etag
        assert "no-store" in response["Cache-Control"]
        # A changed screen still goes the whole way, through the session to the view.
        factories.report(playing, 1, factories.seated_names(playing, 1)[1])
        with pytest.raises(AssertionError):
            client.get(live, HTTP_IF_NONE_MATCH=etag, **HTMX)


def test_an_early_answer_checks_the_host_as_any_page_does(playing):
    client = Client(raise_request_exception=False)
    live, etag = _phone_etag(client, playing)
    response = client.get(live, HTTP_IF_NONE_MATCH=etag, HTTP_HOST="evil.example", **HTMX)
    assert response.status_code == 400


def test_a_console_poll_is_never_answered_before_its_sign_in_is_checked(playing, signed_in):
    live = reverse("organizer:event_live", args=[playing.pk])
    etag = signed_in.get(live, **HTMX)["ETag"]
    assert signed_in.get(live, HTTP_IF_NONE_MATCH=etag, **HTMX).status_code == 304
    stranger = Client()
    response = stranger.get(live, HTTP_IF_NONE_MATCH=etag, **HTMX)
    assert response.status_code != 304
