"""How the live channel's stream is found and let in (tournament.serving.live_channel):
its path is the URLconf's, its host is checked and its cookies read by Django's own code,
so a stream refuses and reads exactly what a page would."""

from __future__ import annotations

import asyncio

import pytest
from django.urls import reverse

from tournament.serving import live_channel

NO_TOKEN = "no.token"  # not one of ours: refused (404) before any query


def test_the_stream_s_path_is_the_urlconf_s():
    path = live_channel.stream_path()
    assert path.fullmatch(reverse("phone:screen_stream", args=["Ab_9-x"]))["token"] == "Ab_9-x"
    for elsewhere in (
        reverse("phone:screen", args=["Ab_9-x"]),
        reverse("phone:screen_live", args=["Ab_9-x"]),
        reverse("phone:table", args=["stream"]),
        "/t/p/Ab_9-x/stream/more/",
    ):
        assert path.fullmatch(elsewhere) is None, elsewhere


def _stream(headers: list[tuple[bytes, bytes]], token: str = NO_TOKEN) -> int:
    scope = {"type": "http", "method": "GET", "path": f"/t/p/{token}/stream/", "headers": headers}
    sent: list[dict] = []

    async def receive() -> dict:
        return {"type": "http.disconnect"}

    async def send(message: dict) -> None:
        sent.append(message)

    asyncio.run(live_channel.stream(scope, receive, send, token))
    return sent[0]["status"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "host",
    ["localhost", "localhost:8000", "LocalHost", "tricks.example", "evil.example", "", "a b"],
)
def test_a_stream_refuses_the_hosts_a_page_refuses(client, settings, host):
    settings.ALLOWED_HOSTS = ["localhost", ".tricks.example"]
    page = client.get(reverse("phone:screen", args=[NO_TOKEN]), headers={"host": host})
    stream = _stream([(b"host", host.encode())])
    assert (stream == 400) == (page.status_code == 400), (stream, page.status_code)
    assert stream in {400, 404}


def test_a_stream_reads_the_language_cookie_as_a_page_does(monkeypatch, settings):
    settings.ALLOWED_HOSTS = ["localhost"]
    asked: list[str] = []
    monkeypatch.setattr(live_channel, "_follow", lambda token, language: asked.append(language))
    host = (b"host", b"localhost")
    _stream([host, (b"cookie", b"sessionid=abc; ft_language=fr")])
    _stream([host, (b"cookie", b"sessionid=abc"), (b"cookie", b"ft_language=de")])  # HTTP/2
    _stream([host, (b"cookie", b'ft_language="es"; other=1')])
    _stream([host])
    assert asked == ["fr", "de", "es", ""]
