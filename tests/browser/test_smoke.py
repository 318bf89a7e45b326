"""The browser harness works: an organizer opens the one-time sign-in link, presses its
button and sees the console; opening the link alone (a chat app's preview) spends nothing."""

import pytest
from playwright.sync_api import expect

from tournament.writes.signin import ensure_organizer, sign_in_path

pytestmark = pytest.mark.django_db(transaction=True)


def test_sign_in_link_opens_the_console_once(live_server, new_context):
    user, _ = ensure_organizer()
    link = live_server.url + sign_in_path(user)

    preview = new_context().new_page()  # a chat app fetching the link to show a preview
    assert preview.goto(link).status == 200
    expect(preview.get_by_role("heading", name="Sign in as organizer")).to_be_visible()

    page = new_context().new_page()
    page.goto(link)
    page.get_by_role("button", name="Sign in", exact=True).click()
    expect(page.get_by_role("heading", name="Your events")).to_be_visible()
    expect(page.locator(".message", has_text="Signed in as organizer.")).to_be_visible()

    page.context.clear_cookies()
    response = page.goto(link)
    assert response.status == 404
    assert page.get_by_role("heading", name="This sign-in link no longer works").is_visible()


def test_a_second_press_while_the_first_is_on_its_way_sends_nothing(live_server, page):
    """On a slow network the first POST spends the link; a second would find it spent."""
    user, _ = ensure_organizer()
    link = live_server.url + sign_in_path(user)
    held = []
    page.route(
        link,
        lambda route: held.append(route) if route.request.method == "POST" else route.continue_(),
    )
    page.goto(link)
    box = page.get_by_role("button", name="Sign in", exact=True).bounding_box()
    centre = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    with page.expect_request(lambda request: request.method == "POST"):
        page.mouse.click(*centre)  # a plain click: it waits for no navigation
    page.mouse.click(*centre)  # the page has taken the click when this returns
    assert len(held) == 1
    held[0].continue_()
    expect(page.get_by_role("heading", name="Your events")).to_be_visible()
    # A second POST would have been held too, and the page would still wait for it.
    assert len(held) == 1
