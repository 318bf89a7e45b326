"""The browser harness works: an organizer opens the one-time sign-in link and sees the console."""

import pytest

from tournament.signin import ensure_organizer, sign_in_path

pytestmark = pytest.mark.django_db(transaction=True)


def test_sign_in_link_opens_the_console_once(live_server, page):
    user, _ = ensure_organizer()
    link = live_server.url + sign_in_path(user)

    page.goto(link)
    assert page.get_by_role("heading", name="Your events").is_visible()

    page.context.clear_cookies()
    response = page.goto(link)
    assert response.status == 404
    assert page.get_by_role("heading", name="This sign-in link no longer works").is_visible()
