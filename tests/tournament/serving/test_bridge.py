"""The bridge that runs Django's WSGI application under the ASGI server
(tournament.serving.bridge), driven as an ASGI server drives it: the environ PEP 3333
asks for, a streamed answer, the body kept in memory or in a file, the body limit, a
client gone mid-body, an application that fails, and the requests held at a stop."""

from __future__ import annotations

import asyncio
import contextlib
import io
import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.core.handlers.wsgi import WSGIRequest

from tests.event_loops import run
from tournament.serving.bridge import MAX_BODY_BYTES, ThreadedWSGI
from tournament.writes.record_file import MAX_RECORD_BYTES

WAIT = 10.0  # seconds, for what must happen at once: a failure, never a hang


def scope(path: str = "/", *, method: str = "GET", headers=(), **more: Any) -> dict:
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "query_string": b"",
        "root_path": "",
        "headers": [(n.encode("latin-1"), v.encode("latin-1")) for n, v in headers],
        "client": ("192.168.1.7", 51000),
        "server": ("192.168.1.20", 8000),
        **more,
    }


def body(*chunks: bytes) -> list[dict]:
    """A body as a client sends it, in parts."""
    return [
        {"type": "http.request", "body": chunk, "more_body": number < len(chunks) - 1}
        for number, chunk in enumerate(chunks)
    ]


async def _call(bridge: ThreadedWSGI, asked: dict, incoming: list[dict]) -> list[dict]:
    sent: list[dict] = []
    waiting = list(incoming)

    async def receive() -> dict:
        if waiting:
            return waiting.pop(0)
        await asyncio.Event().wait()  # a client that says nothing more
        raise AssertionError

    async def send(message: dict) -> None:
        sent.append(message)

    await asyncio.wait_for(bridge(asked, receive, send), WAIT)
    return sent


def call(bridge: ThreadedWSGI, asked: dict, incoming: list[dict] | None = None) -> list[dict]:
    """What the bridge sends for one request (an empty body unless given)."""
    return run(_call(bridge, asked, body(b"") if incoming is None else incoming))


def answered(sent: list[dict]) -> tuple[int, dict[bytes, bytes], bytes]:
    start, *parts = sent
    assert start["type"] == "http.response.start"
    return start["status"], dict(start["headers"]), b"".join(p.get("body", b"") for p in parts)


class Site:
    """A WSGI application that keeps every environ and what its body read."""

    def __init__(self, answer: Callable[[dict, Any], Any] | None = None) -> None:
        self.environs: list[dict] = []
        self.bodies: list[bytes] = []
        self.answer = answer

    def __call__(self, environ: dict, start_response: Any) -> Any:
        self.environs.append(environ)
        self.bodies.append(environ["wsgi.input"].read())
        if self.answer is not None:
            return self.answer(environ, start_response)
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"ok"]


@pytest.fixture
def site() -> Site:
    return Site()


@pytest.fixture
def bridge(site: Site):
    bridge = ThreadedWSGI(site, threads=1, spool=1024)
    yield bridge
    bridge.finish()


# --- the environ (PEP 3333) -----------------------------------------------------------------


def test_the_environ_carries_the_request_as_pep_3333_says(bridge, site):
    asked = scope(
        "/t/é/",
        method="POST",
        query_string=b"a=1&b=%C3%A9",
        headers=[
            ("Host", "192.168.1.20:8000"),
            ("Content-Type", "application/x-www-form-urlencoded"),
            ("Content-Length", "3"),
            ("Cookie", "sessionid=abc"),
            ("cookie", "fivetricks_language=fr"),
            ("Accept", "text/html"),
            ("accept", "*/*"),
            ("X-Forwarded-For", "10.0.0.1"),
        ],
    )
    assert answered(call(bridge, asked, body(b"x=1")))[0] == 200
    (environ,) = site.environs
    assert {key: environ[key] for key in environ if key.isupper()} == {
        "REQUEST_METHOD": "POST",
        "SCRIPT_NAME": "",
        "PATH_INFO": "/t/Ã©/",  # the path's UTF-8 bytes, read as Latin-1
        "QUERY_STRING": "a=1&b=%C3%A9",  # as sent: Django decodes it
        "SERVER_NAME": "192.168.1.20",
        "SERVER_PORT": "8000",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "192.168.1.7",
        "REMOTE_PORT": "51000",
        "HTTP_HOST": "192.168.1.20:8000",
        "CONTENT_TYPE": "application/x-www-form-urlencoded",
        "CONTENT_LENGTH": "3",
        "HTTP_COOKIE": "sessionid=abc; fivetricks_language=fr",
        "HTTP_ACCEPT": "text/html,*/*",
        "HTTP_X_FORWARDED_FOR": "10.0.0.1",
    }
    assert environ["wsgi.version"] == (1, 0)
    assert environ["wsgi.url_scheme"] == "http"
    assert (environ["wsgi.multithread"], environ["wsgi.run_once"]) == (True, False)
    assert site.bodies == [b"x=1"]


def test_django_reads_that_environ_as_the_client_sent_it(bridge, site):
    asked = scope(
        "/t/é/",
        method="POST",
        query_string=b"b=%C3%A9",
        headers=[
            ("Content-Type", "application/x-www-form-urlencoded"),
            ("Cookie", "a=1"),
            ("Cookie", "b=2"),
        ],
    )
    site.answer = None
    call(bridge, asked, body(b"name=J", b"os%C3%A9"))  # in two parts, with no length
    environ = site.environs[0]
    environ["wsgi.input"] = io.BytesIO(site.bodies[0])  # the bridge's was read and closed
    request = WSGIRequest(environ)
    assert request.path == "/t/é/"
    assert request.GET["b"] == "é"
    assert request.POST["name"] == "José"
    assert request.COOKIES == {"a": "1", "b": "2"}


def test_a_mounted_site_s_prefix_is_its_script_name(bridge, site):
    call(bridge, scope("/tricks/t/abc/", root_path="/tricks"))
    assert (site.environs[0]["SCRIPT_NAME"], site.environs[0]["PATH_INFO"]) == (
        "/tricks",
        "/t/abc/",
    )


def test_a_header_with_an_underscore_never_lands_on_a_dashed_one(bridge, site):
    # A proxy appends the client's address to X-Forwarded-For; a client's X_Forwarded_For
    # would otherwise be joined to it and read as the proxy's word.
    headers = [("X-Forwarded-For", "10.0.0.1"), ("X_Forwarded_For", "6.6.6.6")]
    call(bridge, scope(headers=headers))
    assert site.environs[0]["HTTP_X_FORWARDED_FOR"] == "10.0.0.1"


# --- the answer ----------------------------------------------------------------------------


def test_a_streamed_answer_arrives_whole_and_its_iterable_is_closed(bridge, site):
    closed = []

    class Parts:
        def __iter__(self):
            yield b"<p>one</p>"
            yield b""
            yield b"<p>two</p>"

        def close(self):
            closed.append(True)

    def streaming(environ, start_response):
        write = start_response("201 Created", [("Content-Type", "text/html"), ("X-Two", "2")])
        write(b"<!doctype html>")  # PEP 3333's write(), before the iterable
        return Parts()

    site.answer = streaming
    sent = call(bridge, scope())
    assert answered(sent) == (
        201,
        {b"content-type": b"text/html", b"x-two": b"2"},
        b"<!doctype html><p>one</p><p>two</p>",
    )
    assert len(sent) == 2  # one start, one body: the whole answer in one hop
    assert closed == [True]


# --- the body ------------------------------------------------------------------------------


def test_a_small_body_stays_in_memory_and_a_large_one_waits_in_a_file(bridge, site):
    inputs, files = [], []

    def keep_input(environ, start_response):
        inputs.append(environ["wsgi.input"])
        with contextlib.suppress(io.UnsupportedOperation):
            files.append(environ["wsgi.input"].fileno() >= 0)  # a real file's
        start_response("200 OK", [])
        return [b""]

    site.answer = keep_input
    call(bridge, scope(method="POST"), body(b"a" * 600, b"b" * 400))  # 1,000 bytes
    call(bridge, scope(method="POST"), body(b"a" * 600, b"b" * 600))  # 1,200: past 1,024
    assert site.bodies == [b"a" * 600 + b"b" * 400, b"a" * 600 + b"b" * 600]
    assert isinstance(inputs[0], io.BytesIO)
    assert files == [True]  # the second only: on disk, not in the memory
    assert site.environs[1]["CONTENT_LENGTH"] == "1200"  # sent with no length: counted
    assert all(spooled.closed for spooled in inputs)  # done with the request


def test_a_body_over_the_limit_is_refused_before_any_view_runs(site):
    bridge = ThreadedWSGI(site, threads=1, max_body=1000, spool=100)
    try:
        sent = call(bridge, scope(method="POST"), body(b"a" * 600, b"b" * 600))
        assert answered(sent) == (413, {b"content-type": b"text/plain; charset=utf-8"},
                                  b"This upload is too big.\n")  # fmt: skip
        # Announced too big: refused before a byte of it is read.
        announced = scope(method="POST", headers=[("Content-Length", "1001")])
        assert answered(call(bridge, announced, []))[0] == 413
        assert answered(call(bridge, scope(method="POST"), body(b"a" * 1000)))[0] == 200
    finally:
        bridge.finish()
    assert site.bodies == [b"a" * 1000]


def test_the_limit_takes_the_largest_record_the_app_imports_with_its_form():
    assert MAX_BODY_BYTES >= MAX_RECORD_BYTES + 1024 * 1024


def test_a_client_gone_mid_body_runs_no_view_and_is_answered_nothing(bridge, site):
    gone = [*body(b"name=Jos", b"e")[:1], {"type": "http.disconnect"}]
    assert call(bridge, scope(method="POST"), gone) == []
    spooled = [*body(b"a" * 2000, b"b")[:1], {"type": "http.disconnect"}]  # past the spool
    assert call(bridge, scope(method="POST"), spooled) == []
    assert site.environs == []
    assert answered(call(bridge, scope()))[0] == 200  # the thread still serves


# --- failures and the stop -----------------------------------------------------------------


def test_an_application_that_fails_is_logged_and_answered_500_and_the_thread_goes_on(
    bridge, site, caplog
):
    def failing(environ, start_response):
        if environ["PATH_INFO"] == "/broken/":
            raise ValueError("a bug")
        start_response("200 OK", [])
        return [b"fine"]

    site.answer = failing
    status, _headers, text = answered(call(bridge, scope("/broken/")))
    assert (status, text) == (500, b"Server error.\n")
    assert "The site failed on GET /broken/." in caplog.text
    assert "ValueError: a bug" in caplog.text  # with its traceback
    assert answered(call(bridge, scope("/fine/")))[2] == b"fine"  # on the same one thread


def test_an_error_page_given_with_exc_info_replaces_the_started_answer(bridge, site):
    def second_thoughts(environ, start_response):
        start_response("200 OK", [("X-Half", "1")])
        try:
            raise RuntimeError("half way")
        except RuntimeError as error:
            start_response("500 Error", [("X-Error", "1")], (type(error), error, None))
        return [b"sorry"]

    site.answer = second_thoughts
    assert answered(call(bridge, scope())) == (500, {b"x-error": b"1"}, b"sorry")


def test_a_waiting_action_is_served_before_the_pages_and_polls_that_came_first(site):
    running, release = threading.Event(), threading.Event()
    served: list[str] = []

    def busy_then_in_order(environ, start_response):
        if not running.is_set():
            running.set()
            release.wait(WAIT)  # the one thread is busy while the others queue
        served.append(f"{environ['REQUEST_METHOD']} {environ['PATH_INFO']}")
        start_response("200 OK", [])
        return [b"ok"]

    site.answer = busy_then_in_order
    bridge = ThreadedWSGI(site, threads=1)

    async def queue_up() -> None:
        first = asyncio.ensure_future(_call(bridge, scope("/busy/"), body(b"")))
        assert await asyncio.get_running_loop().run_in_executor(None, running.wait, WAIT)
        waiting = [
            asyncio.ensure_future(_call(bridge, scope(path, method=method), body(b"")))
            for method, path in (("GET", "/poll/"), ("GET", "/page/"), ("POST", "/card/"))
        ]
        async with asyncio.timeout(WAIT):
            while bridge.jobs.qsize() < len(waiting):  # all three queued behind the busy one
                await asyncio.sleep(0.01)
        release.set()
        await asyncio.wait_for(asyncio.gather(first, *waiting), WAIT)

    try:
        run(queue_up())
    finally:
        release.set()
        bridge.finish()
    assert served == ["GET /busy/", "POST /card/", "GET /poll/", "GET /page/"]


def test_at_a_graceful_stop_the_threads_finish_what_they_hold_first(site):
    running, release, finished = threading.Event(), threading.Event(), threading.Event()

    def closing_a_round(environ, start_response):
        running.set()
        release.wait(WAIT)
        finished.set()
        start_response("200 OK", [])
        return [b"closed"]

    site.answer = closing_a_round
    bridge = ThreadedWSGI(site, threads=2)
    told: list[tuple[str, int, bool]] = []
    stages = [{"type": "lifespan.startup"}, {"type": "lifespan.shutdown"}]

    async def receive() -> dict:
        if stages[0]["type"] == "lifespan.shutdown":
            release.set()  # the view may end now, whatever the lifespan does meanwhile
        return stages.pop(0)

    async def send(message: dict) -> None:
        told.append((message["type"], bridge.held, finished.is_set()))

    async def stop() -> None:
        request = asyncio.ensure_future(_call(bridge, scope(method="POST"), body(b"x")))
        assert await asyncio.get_running_loop().run_in_executor(None, running.wait, WAIT)
        request.cancel()  # its client went away: the view still holds a thread
        lifespan = {"type": "lifespan", "asgi": {"version": "3.0"}}
        await asyncio.wait_for(bridge(lifespan, receive, send), WAIT)

    run(stop())
    assert told == [
        ("lifespan.startup.complete", 1, False),
        ("lifespan.shutdown.complete", 0, True),  # only once the view was done
    ]
    assert not any(thread.is_alive() for thread in bridge.threads)
