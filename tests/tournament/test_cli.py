"""The `fivetricks` command (tournament/cli.py): what each subcommand hands to Django, the
double click that serves and opens the browser, and a second start that finds the running
one instead of failing on the port."""

from __future__ import annotations

import http.server
import threading

import pytest

from tournament import cli
from tournament.common.product import VERSION
from tournament.management.commands import serve


@pytest.fixture
def handed(monkeypatch):
    """The argv each call would hand to Django's command line, and the running ones opened."""
    calls = {"django": [], "running": []}
    monkeypatch.setattr(cli, "_django", calls["django"].append)
    monkeypatch.setattr(cli, "running_here", lambda port: False)
    monkeypatch.setattr(cli, "serve_in_window", lambda port, rest: None)  # as with no display
    monkeypatch.setattr(
        cli, "open_running", lambda port, browser: calls["running"].append((port, browser))
    )
    monkeypatch.delenv("FIVETRICKS_PORT", raising=False)
    return calls


def test_a_double_click_serves_on_the_default_port_and_opens_the_browser(handed):
    cli.main([])
    assert handed["django"] == [["fivetricks serve", "serve", "--port", "8000", "--browser"]]


def test_serve_passes_its_options_on_and_no_browser_keeps_the_browser_shut(handed):
    cli.main(["serve", "--port", "8123", "--workers", "2", "--threads", "3", "--no-browser"])
    cli.main(["serve", "--setup-only", "--no-rehearsal"])
    assert handed["django"] == [
        ["fivetricks serve", "serve", "--port", "8123", "--workers", "2", "--threads", "3"],
        ["fivetricks serve", "serve", "--port", "8000", "--no-rehearsal", "--setup-only"],
    ]


def test_a_second_start_opens_the_running_one_instead_of_serving(handed, monkeypatch):
    monkeypatch.setattr(cli, "running_here", lambda port: port == 8123)
    cli.main(["--port", "8123"])
    cli.main(["serve", "--port", "8123", "--no-browser"])
    assert handed["running"] == [(8123, True), (8123, False)]
    assert handed["django"] == []


def test_signin_link_and_manage_run_django_commands(handed):
    cli.main(["signin-link", "--port", "8123"])
    cli.main(["manage", "export_event", "12"])
    assert handed["django"] == [
        ["fivetricks signin-link", "signin_link", "--port", "8123"],
        ["fivetricks manage", "export_event", "12"],
    ]


def test_an_unknown_command_says_what_the_known_ones_are(handed):
    with pytest.raises(SystemExit, match=r"(?s)unknown command 'serv'.*signin-link"):
        cli.main(["serv"])
    assert handed["django"] == []


def _answering(body: bytes) -> http.server.HTTPServer:
    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


@pytest.mark.parametrize(
    ("body", "ours"),
    [
        (f'<meta name="generator" content="Five Tricks {VERSION}">'.encode(), True),
        (b"<title>Some other server</title>", False),
    ],
)
def test_the_running_one_is_told_apart_from_another_server_by_its_page(body, ours):
    server = _answering(body)
    try:
        assert cli.running_here(server.server_address[1]) is ours
    finally:
        server.shutdown()
        server.server_close()


def test_a_port_nobody_serves_is_not_a_running_one():
    server = _answering(b"")
    port = server.server_address[1]
    server.server_close()
    assert cli.running_here(port) is False


def test_the_banner_names_the_command_this_start_was_made_with(settings, monkeypatch):
    settings.INSTALLED_PACKAGE = False
    assert serve.own_command("signin_link", "--port", "8123").endswith(
        " manage.py signin_link --port 8123"
    )
    settings.INSTALLED_PACKAGE = True
    assert serve.own_command("signin_link", "--port", "8123") == (
        "fivetricks signin-link --port 8123"
    )
    monkeypatch.setattr(serve.sys, "frozen", True, raising=False)
    monkeypatch.setattr(serve.sys, "executable", "/Apps/Five Tricks/fivetricks")
    assert serve.own_command("serve") == "'/Apps/Five Tricks/fivetricks' serve"


@pytest.mark.django_db
def test_the_home_page_names_the_product_for_a_second_start(client):
    assert cli.RUNNING_MARKER in client.get("/").content


@pytest.mark.django_db
def test_pages_name_the_commands_of_the_installation(client, settings, monkeypatch):
    html = client.get("/console/sign-in/").content.decode()
    assert "<code>make run</code>" in html
    assert "<code>python manage.py signin_link</code>" in html
    settings.INSTALLED_PACKAGE = True
    html = client.get("/console/sign-in/").content.decode()
    assert "<code>fivetricks</code>" in html
    assert "<code>fivetricks signin-link</code>" in html
    # The double-click bundle puts no `fivetricks` on the PATH: its users run the app itself.
    monkeypatch.setattr(serve.sys, "frozen", True, raising=False)
    monkeypatch.setattr(serve.sys, "executable", "/Apps/Five Tricks/fivetricks")
    html = client.get("/console/sign-in/").content.decode()
    assert "<code>&#x27;/Apps/Five Tricks/fivetricks&#x27; signin-link</code>" in html
    assert "fivetricks manage" not in html.replace("Tricks/fivetricks", "")


README_SERVE_OPTIONS = ["--port", "8080", "--no-browser", "--no-window", "--workers", "2"]


def _serve_options(argv: list[str]) -> dict:
    """The options `manage.py serve` reads from ``argv`` (its arguments after "serve")."""
    parsed = serve.Command().create_parser("manage.py", "serve").parse_args(argv)
    return vars(parsed)


def test_the_readme_s_serve_options_parse_on_manage_py_serve_as_on_fivetricks_serve(handed):
    options = _serve_options(README_SERVE_OPTIONS)
    assert (options["port"], options["workers"], options["browser"]) == (8080, 2, False)
    assert options["no_window"] is True  # taken and ignored: manage.py serve has no window
    cli.main(["serve", *README_SERVE_OPTIONS])
    [handed_argv] = handed["django"]
    assert _serve_options(handed_argv[2:])["browser"] is False


def test_on_manage_py_serve_the_last_of_browser_and_no_browser_wins():
    assert _serve_options([])["browser"] is False
    assert _serve_options(["--browser"])["browser"] is True
    assert _serve_options(["--browser", "--no-browser"])["browser"] is False
    assert _serve_options(["--no-browser", "--browser"])["browser"] is True
