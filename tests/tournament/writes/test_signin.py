"""Organizer sign-in: one-time links show a button and work once, only through it, and
never for a wrong or foreign token; password sign-ins (console and admin) lock an account
or an address that fails too often, say until when, and unlock on time."""

from datetime import datetime, timedelta

import pytest
from django.contrib.auth.tokens import default_token_generator
from django.core.management import call_command
from django.db.models import F
from django.test import Client
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from tests import factories
from tournament.models import SignInAttempt
from tournament.writes import signin
from tournament.writes.signin import ensure_organizer, sign_in_path

pytestmark = pytest.mark.django_db

PASSWORD = "a long and right horse"
CONSOLE_LOGIN = "/console/sign-in/"
ADMIN_LOGIN = "/admin/login/"
LOGIN_PAGES = [CONSOLE_LOGIN, ADMIN_LOGIN]


def signed_in(client) -> bool:
    return "_auth_user_id" in client.session


def test_the_organizer_is_created_once_without_a_usable_password():
    user, created = ensure_organizer()
    again, created_again = ensure_organizer()
    assert created
    assert not created_again
    assert again.pk == user.pk
    assert not user.has_usable_password()


# --- one-time links -------------------------------------------------------------------


def test_opening_a_link_shows_a_button_and_neither_signs_in_nor_spends_it(client):
    user, _ = ensure_organizer()
    link = sign_in_path(user)
    for _ in range(2):  # a chat app's preview, then the organizer
        page = client.get(link)
        assert page.status_code == 200
        html = page.content.decode()
        assert "<h1>Sign in as organizer</h1>" in html
        assert '<form method="post"' in html
        assert '<button type="submit">Sign in</button>' in html
        assert not signed_in(client)
    user.refresh_from_db()
    assert user.last_login is None
    assert page["Cache-Control"].startswith("max-age=0")


def test_pressing_the_button_signs_in_and_spends_the_link(client):
    user, _ = ensure_organizer()
    link = sign_in_path(user)
    response = client.post(link)
    assert response.status_code == 302
    assert response["Location"] == "/console/"
    assert client.get("/console/").status_code == 200

    client.logout()
    for method in (client.get, client.post):
        again = method(link)
        assert again.status_code == 404
        assert b"no longer works" in again.content
    assert not signed_in(client)


def test_the_button_is_a_plain_form_posted_with_its_csrf_token():
    user, _ = ensure_organizer()
    link = sign_in_path(user)
    browser = Client(enforce_csrf_checks=True)
    page = browser.get(link)
    assert browser.post(link).status_code == 403  # a POST from elsewhere cannot use it
    token = page.context["csrf_token"]
    assert browser.post(link, {"csrfmiddlewaretoken": str(token)}).status_code == 302
    assert signed_in(browser)


def test_pressing_twice_in_the_browser_that_signed_in_opens_the_console(client):
    user, _ = ensure_organizer()
    link = sign_in_path(user)
    client.post(link)
    again = client.post(link)
    assert again.status_code == 302
    assert again["Location"] == "/console/"


def test_a_spent_link_still_refuses_another_signed_in_account(client, django_user_model):
    owner, _ = ensure_organizer()
    link = sign_in_path(owner)
    client.post(link)
    client.force_login(factories.make_organizer(django_user_model, "bob"))
    assert client.get(link).status_code == 404


def test_a_password_reset_token_is_no_sign_in_link_and_the_other_way_round(client):
    user, _ = ensure_organizer()
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    reset_token = default_token_generator.make_token(user)
    assert client.get(f"/console/sign-in/{uid}/{reset_token}/").status_code == 404
    assert client.post(f"/console/sign-in/{uid}/{reset_token}/").status_code == 404
    assert not signed_in(client)

    link_token = sign_in_path(user).rstrip("/").rsplit("/", 1)[1]
    assert signin.link_is_valid(user, link_token)
    assert not default_token_generator.check_token(user, link_token)


@pytest.mark.parametrize(
    "path",
    [
        "/console/sign-in/MQ/abc-def/",  # a made-up token
        "/console/sign-in/!!!/abc-def/",  # a garbled account
        "/console/sign-in/OTk5/abc-def/",  # an account that does not exist (999)
    ],
)
def test_a_forged_or_garbled_link_is_refused_kindly(client, path):
    ensure_organizer()
    for method in (client.get, client.post):
        response = method(path)
        assert response.status_code == 404
        assert b"This sign-in link no longer works" in response.content


def test_an_expired_link_is_refused(client, monkeypatch):
    user, _ = ensure_organizer()
    two_days_ago = datetime.now() - timedelta(days=2)
    monkeypatch.setattr(signin.sign_in_tokens, "_now", lambda: two_days_ago)
    link = sign_in_path(user)
    monkeypatch.undo()
    assert client.get(link).status_code == 404
    assert client.post(link).status_code == 404


def test_a_link_for_a_deactivated_account_is_refused(client, django_user_model):
    user, _ = ensure_organizer()
    link = sign_in_path(user)
    django_user_model.objects.filter(pk=user.pk).update(is_active=False)
    assert client.post(link).status_code == 404
    assert not signed_in(client)


def test_signin_link_command_prints_a_working_link(client, capsys):
    call_command("signin_link", port=8000)
    link = capsys.readouterr().out.strip()
    assert link.startswith("http://")
    path = "/" + link.split("/", 3)[3]
    assert client.get(path).status_code == 200
    assert client.post(path).status_code == 302


def test_the_link_page_has_no_inline_script_or_style(client):
    user, _ = ensure_organizer()
    html = client.get(sign_in_path(user)).content.decode()
    assert "style=" not in html
    assert "<style" not in html
    assert html.count("<script") == html.count("<script src=")


# --- password sign-ins: the rate limit through the pages ------------------------------


@pytest.fixture
def owner():
    user, _ = ensure_organizer()
    user.set_password(PASSWORD)
    user.save()
    return user


def attempt(client, url, username="organizer", password="wrong", address="10.0.0.9"):
    return client.post(url, {"username": username, "password": password}, REMOTE_ADDR=address)


def wrong_password(response, url) -> bool:
    expected = "for a staff account" if url == ADMIN_LOGIN else "Please enter a correct username"
    return response.status_code == 200 and expected in response.content.decode()


def expire_attempts() -> None:
    """As if the lock window had passed since every stored attempt."""
    SignInAttempt.objects.update(attempted_at=F("attempted_at") - signin.LOCK_WINDOW)


@pytest.mark.parametrize("url", LOGIN_PAGES)
def test_an_account_is_locked_after_five_failures_even_for_the_right_password(client, owner, url):
    for _ in range(signin.ACCOUNT_LIMIT):
        assert wrong_password(attempt(client, url), url)

    locked = attempt(client, url, password=PASSWORD)
    html = locked.content.decode()
    assert locked.status_code == 200
    assert "Too many failed sign-ins for this account. Try again in 15 minutes (at " in html
    assert "python manage.py signin_link" in html
    assert not signed_in(client)
    # Refused unchecked and uncounted: waiting is enough.
    assert SignInAttempt.objects.count() == signin.ACCOUNT_LIMIT


@pytest.mark.parametrize("url", LOGIN_PAGES)
def test_the_lock_lifts_once_the_failures_are_older_than_the_window(client, owner, url):
    for _ in range(signin.ACCOUNT_LIMIT):
        attempt(client, url)
    assert "Too many" in attempt(client, url, password=PASSWORD).content.decode()

    expire_attempts()
    assert attempt(client, url, password=PASSWORD).status_code == 302
    assert signed_in(client)


@pytest.mark.parametrize("url", LOGIN_PAGES)
def test_other_accounts_are_unaffected_by_a_locked_one(client, owner, url, django_user_model):
    other = django_user_model.objects.create_user("bob", password=PASSWORD, is_staff=True)
    for _ in range(signin.ACCOUNT_LIMIT):
        attempt(client, url)
    assert "Too many" in attempt(client, url, password=PASSWORD).content.decode()

    assert attempt(client, url, username=other.username, password=PASSWORD).status_code == 302


@pytest.mark.parametrize("url", LOGIN_PAGES)
def test_an_address_is_locked_after_twenty_failures_across_accounts(client, owner, url):
    for number in range(signin.ADDRESS_LIMIT):
        assert wrong_password(attempt(client, url, username=f"guess{number}"), url)

    locked = attempt(client, url, password=PASSWORD)
    html = locked.content.decode()
    assert "Too many failed sign-ins from this network address. Try again in 15 minutes" in html
    assert not signed_in(client)

    elsewhere = attempt(client, url, password=PASSWORD, address="10.0.0.10")
    assert elsewhere.status_code == 302


@pytest.mark.parametrize("url", LOGIN_PAGES)
def test_a_successful_sign_in_clears_the_account_count_not_the_address_count(client, owner, url):
    for _ in range(signin.ACCOUNT_LIMIT - 1):
        attempt(client, url)
    assert attempt(client, url, password=PASSWORD).status_code == 302
    client.logout()

    for _ in range(signin.ACCOUNT_LIMIT):
        assert wrong_password(attempt(client, url), url)
    assert "Too many" in attempt(client, url, password=PASSWORD).content.decode()
    # The cleared failures still count for the address they came from.
    assert SignInAttempt.objects.filter(address="10.0.0.9").count() == 2 * signin.ACCOUNT_LIMIT - 1


@pytest.mark.parametrize("url", LOGIN_PAGES)
def test_a_lockout_from_one_address_leaves_sign_in_from_another_working(client, owner, url):
    for _ in range(signin.ACCOUNT_LIMIT):
        assert wrong_password(attempt(client, url, address="10.0.0.66"), url)
    stranger = attempt(client, url, password=PASSWORD, address="10.0.0.66")
    assert "Too many failed sign-ins for this account." in stranger.content.decode()

    assert attempt(client, url, password=PASSWORD, address="10.0.0.9").status_code == 302
    assert signed_in(client)


def test_a_sign_in_link_unlocks_the_account(client, owner):
    for _ in range(signin.ACCOUNT_LIMIT):
        attempt(client, CONSOLE_LOGIN)
    assert client.post(sign_in_path(owner)).status_code == 302
    client.logout()
    assert attempt(client, CONSOLE_LOGIN, password=PASSWORD).status_code == 302


def test_an_account_counts_its_failures_whatever_the_case_typed(client, owner):
    for username in ["Organizer", "ORGANIZER", "organizer ", "OrGaNiZeR", "organizer"]:
        attempt(client, CONSOLE_LOGIN, username=username)
    assert "Too many" in attempt(client, CONSOLE_LOGIN, password=PASSWORD).content.decode()


def test_an_empty_password_is_a_form_error_not_an_attempt(client, owner):
    response = attempt(client, CONSOLE_LOGIN, password="")
    assert response.status_code == 200
    assert SignInAttempt.objects.count() == 0


# --- the rate limit's rules, with the time given ---------------------------------------


def test_a_lockout_lifts_when_the_limit_th_newest_failure_leaves_the_window():
    start = timezone.now()
    for minute in range(signin.ACCOUNT_LIMIT):
        signin.start_password_attempt(
            username="ada", address="10.0.1.1", now=start + timedelta(minutes=minute)
        )
    at_five = start + timedelta(minutes=5)
    lockout = signin.start_password_attempt(username="ada", address="10.0.1.1", now=at_five)
    assert lockout == signin.Lockout(signin.LockScope.ACCOUNT, start + signin.LOCK_WINDOW)
    assert "Try again in 10 minutes" in lockout.message(now=at_five)
    assert "Try again in 1 minute (at " in lockout.message(now=lockout.until - timedelta(seconds=5))

    just_before = start + signin.LOCK_WINDOW - timedelta(seconds=1)
    assert isinstance(
        signin.start_password_attempt(username="ada", address="10.0.1.1", now=just_before),
        signin.Lockout,
    )
    # The first failure has left the window: four remain, so one more password is checked.
    after = start + signin.LOCK_WINDOW + timedelta(seconds=1)
    allowed = signin.start_password_attempt(username="ada", address="10.0.1.1", now=after)
    assert isinstance(allowed, SignInAttempt)
    assert SignInAttempt.objects.filter(attempted_at__lt=after - signin.LOCK_WINDOW).count() == 0


def test_attempts_under_way_count_before_their_password_is_checked():
    # Five attempts started in other workers and not finished yet hold the account.
    for _ in range(signin.ACCOUNT_LIMIT):
        assert isinstance(
            signin.start_password_attempt(username="ada", address="10.0.0.1"), SignInAttempt
        )
    assert isinstance(
        signin.start_password_attempt(username="ada", address="10.0.0.1"), signin.Lockout
    )


def test_the_later_of_two_lockouts_is_the_one_reported():
    start = timezone.now()
    for number in range(signin.ADDRESS_LIMIT - signin.ACCOUNT_LIMIT):
        signin.start_password_attempt(
            username=f"guess{number}", address="10.0.0.1", now=start + timedelta(seconds=number)
        )
    for _ in range(signin.ACCOUNT_LIMIT):
        signin.start_password_attempt(
            username="ada", address="10.0.0.1", now=start + timedelta(minutes=1)
        )
    lockout = signin.start_password_attempt(
        username="ada", address="10.0.0.1", now=start + timedelta(minutes=2)
    )
    assert lockout.scope == signin.LockScope.ACCOUNT
    assert lockout.until == start + timedelta(minutes=1) + signin.LOCK_WINDOW


# --- the client address ---------------------------------------------------------------


# --- other organizers -----------------------------------------------------------------


def test_the_root_page_points_players_to_their_table_and_organizers_to_the_console(client):
    response = client.get("/")
    assert response.status_code == 200
    assert b"Scan the QR code on your table" in response.content
    user, _ = ensure_organizer()
    client.force_login(user)
    assert client.get("/").url == "/console/"


def test_only_the_installations_own_account_is_a_superuser():
    owner, _ = ensure_organizer()
    guest, _ = ensure_organizer("bob")
    assert owner.is_superuser
    assert not guest.is_superuser
    assert not guest.is_staff


def test_another_organizer_cannot_open_the_owners_event(client):
    owner, _ = ensure_organizer()
    guest, _ = ensure_organizer("bob")
    event = factories.make_event(owner=owner)
    client.force_login(guest)
    assert client.get(f"/console/{event.pk}/").status_code == 404
    assert event.name not in client.get("/console/").content.decode()
