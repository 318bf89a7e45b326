"""The landing page and the icon browsers ask for on their own."""

from __future__ import annotations


def test_the_favicon_is_served_not_a_404(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/svg+xml"
    assert b"<svg" in response.content
    assert "max-age" in response["Cache-Control"]


def test_pages_link_the_icon(client):
    assert 'rel="icon"' in client.get("/").content.decode()
