"""The console's "Stop the server" button: only the account `serve` signs in (or a
superuser), at the laptop, on a server that `serve` started and that is not hosted, sees
it and may use it; confirming renders the "stopped" page, then signals the main process
once."""

from __future__ import annotations

import html
import threading

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from tests import factories
from tests.tournament.writes.test_cofacilitators import join
from tournament.models import CoRole
from tournament.serving import server_stop
from tournament.writes.signin import ensure_organizer

pytestmark = pytest.mark.django_db

MAIN = 4321
LAN = "192.168.1.30"
CONFIRM = reverse("organizer:server_stop_confirm")
STOP = reverse("organizer:server_stop")
laptop = override_settings(STOPPABLE_SERVER_PID=MAIN)


@pytest.fixture
def organizer():
    """The account `serve` signs in: the laptop's own organizer."""
    return ensure_organizer()[0]


@pytest.fixture
def stops(monkeypatch):
    """The PIDs the views asked to stop, instead of stopping anything."""
    asked: list[int] = []
    monkeypatch.setattr(server_stop, "stop_soon", lambda pid: asked.append(pid))
    return asked


def shows_button(client, path, **extra) -> bool:
    page = client.get(path, **extra).content.decode()
    return f'action="{CONFIRM}"' in page


@laptop
def test_the_organizer_at_the_laptop_sees_the_button_in_the_footer(signed_in, event):
    for path in (reverse("organizer:events"), reverse("organizer:event", args=[event.pk])):
        page = signed_in.get(path).content.decode()
        footer = page[page.index('<footer class="console-foot') :]
        assert f'action="{CONFIRM}"' in footer
        assert "Stop the server" in footer


@laptop
def test_not_from_another_machine_on_the_wi_fi(signed_in, event, stops):
    assert not shows_button(signed_in, reverse("organizer:events"), REMOTE_ADDR=LAN)
    assert signed_in.post(CONFIRM, REMOTE_ADDR=LAN).status_code == 404
    assert signed_in.post(STOP, REMOTE_ADDR=LAN).status_code == 404
    assert stops == []


@laptop
@pytest.mark.parametrize("role", [CoRole.ASSISTANT, CoRole.OBSERVER])
def test_not_for_a_co_facilitator_even_at_the_laptop(event, role, stops):
    browser, _invitation = join(event, role)
    assert not shows_button(browser, reverse("organizer:event", args=[event.pk]))
    assert browser.post(CONFIRM).status_code == 404
    assert browser.post(STOP).status_code == 404
    assert stops == []


@laptop
def test_not_for_another_organizer_account_even_at_the_laptop(client, django_user_model, stops):
    other = factories.make_organizer(django_user_model, "bea")
    client.force_login(other)
    own = factories.make_event(owner=other)
    assert not shows_button(client, reverse("organizer:events"))
    assert not shows_button(client, reverse("organizer:event", args=[own.pk]))
    assert client.post(CONFIRM).status_code == 404
    assert client.post(STOP).status_code == 404
    assert stops == []


@laptop
def test_a_superuser_may_stop_it(client, django_user_model, stops):
    admin = django_user_model.objects.create_superuser("root", password="x" * 12)
    client.force_login(admin)
    assert shows_button(client, reverse("organizer:events"))
    assert client.post(STOP).status_code == 200
    assert stops == [MAIN]


@laptop
def test_not_for_someone_signed_out(client, stops):
    assert client.post(CONFIRM).status_code == 404
    assert client.post(STOP).status_code == 404
    assert stops == []


@override_settings(STOPPABLE_SERVER_PID=None)
def test_not_on_a_server_that_is_hosted_or_not_started_by_serve(signed_in, event, stops):
    assert not shows_button(signed_in, reverse("organizer:events"))
    assert not shows_button(signed_in, reverse("organizer:event", args=[event.pk]))
    assert signed_in.post(CONFIRM).status_code == 404
    assert signed_in.post(STOP).status_code == 404
    assert stops == []


@laptop
def test_a_get_stops_nothing(signed_in, stops):
    assert signed_in.get(CONFIRM).status_code == 405
    assert signed_in.get(STOP).status_code == 405
    assert stops == []


@laptop
def test_the_button_asks_once_more_and_stops_nothing_yet(signed_in, event, stops):
    console = reverse("organizer:event", args=[event.pk])
    response = signed_in.post(CONFIRM, {"next": console})

    page = html.unescape(response.content.decode())
    assert response.status_code == 200
    assert "Stop the server?" in page
    assert "Phones and the projector will stop updating; your data is kept." in page
    assert f'action="{STOP}"' in page
    assert f'href="{console}"' in page  # "Keep it running" goes back where it was pressed
    assert f'action="{CONFIRM}"' not in page  # no second footer button on this page
    assert stops == []


@laptop
def test_keep_it_running_never_leads_off_the_site(signed_in, stops):
    page = signed_in.post(CONFIRM, {"next": "https://evil.example/"}).content.decode()
    assert "evil.example" not in page
    assert f'href="{reverse("organizer:events")}"' in page


@laptop
@override_settings(INSTALLED_PACKAGE=False)
def test_stopping_says_where_the_data_is_then_signals_the_main_process_once(
    signed_in, stops, settings
):
    response = signed_in.post(STOP)

    page = html.unescape(response.content.decode())
    assert response.status_code == 200
    assert "The server has stopped" in page
    assert str(settings.DATABASES["default"]["NAME"]) in page
    assert str(settings.BACKUP_DIR) in page
    assert "make run" in page
    assert "<script" not in page  # nothing on it calls the stopped server
    assert stops == [MAIN]


@laptop
@override_settings(INSTALLED_PACKAGE=True)
def test_an_installed_package_says_to_run_fivetricks(signed_in, stops):
    page = signed_in.post(STOP).content.decode()
    assert "<code>fivetricks</code>" in page
    assert "a page with a Sign in button: press it to reach the console" in page
    assert "signed in" not in page
    assert stops == [MAIN]


@laptop
def test_the_double_click_app_says_to_double_click_it(signed_in, stops, monkeypatch):
    monkeypatch.setattr("sys.frozen", True, raising=False)
    page = signed_in.post(STOP).content.decode()
    assert "Double-click the Five Tricks app" in page
    # What a double click really opens: a page with a Sign in button, not the console.
    assert "a page with a Sign in button: press it to reach the console" in page
    assert "signed in" not in page


@laptop
def test_the_stop_reaches_the_signal_once_with_the_main_process_pid(signed_in, monkeypatch):
    """The real timer, with a short delay, up to the function that sends the signal."""
    sent: list[int] = []
    timers: list[threading.Timer] = []
    start_timer = server_stop.stop_soon
    monkeypatch.setattr(server_stop, "STOP_DELAY", 0.05)
    monkeypatch.setattr(server_stop, "send_stop_signal", sent.append)
    monkeypatch.setattr(server_stop, "stop_soon", lambda pid: timers.append(start_timer(pid)))

    assert signed_in.post(STOP).status_code == 200

    assert len(timers) == 1
    timers[0].join(timeout=5)
    assert sent == [MAIN]


@laptop
def test_without_the_csrf_token_nothing_stops(organizer, stops):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(organizer)
    assert browser.post(CONFIRM).status_code == 403
    assert browser.post(STOP).status_code == 403
    assert stops == []


@laptop
@pytest.mark.parametrize(
    ("language", "heading"),
    [("fr", "Le serveur est arrêté"), ("es", "El servidor se ha detenido"), ("de", "Der Server")],
)
def test_the_stopped_page_speaks_the_console_s_language(
    signed_in, stops, settings, language, heading
):
    signed_in.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    page = html.unescape(signed_in.post(STOP).content.decode())
    assert heading in page
    assert "The server has stopped" not in page
