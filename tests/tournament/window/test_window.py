"""The app's window on a real (virtual) display: `fivetricks` started as a double click
starts it, under Xvfb at a laptop's usual size (1366x768, 96 dpi), with a real server,
and used with the keyboard (keys.py): Return and the keypad's Enter press the focused
button, whose ring is solid and 3 pixels wide; Stop asks in its message, Escape keeps
serving, Return stops.

Pictures of the window are checked pixel by pixel: the state line's colour, no QR code
before the server answers, then a QR code whose modules are the phones' address that the
server printed, the focus ring, and once stopped the code greyed out. With SCREENSHOTS=1
they are kept in screenshots/.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.tools import missing
from tests.tournament.window import keys, xwd
from tournament.window.screen import COLOURS, GREYED, QUIET_ZONE_MODULES, Phase, qr_matrix
from tournament.window.server import answers_health
from tournament.window.tk_window import RING

pytestmark = pytest.mark.window

REPO = Path(__file__).resolve().parents[3]
LAPTOP_SCREEN = "1366x768x24"
WHITE, BLACK = (255, 255, 255), (0, 0, 0)
# The browser the window opens: writes whether the server answered, then the link. (BROWSER
# is a list split at colons: it names the port, not the health check's URL.)
RECORDER = """import sys, urllib.request
try:
    health = f"http://127.0.0.1:{sys.argv[2]}/healthz"
    answered = urllib.request.urlopen(health, timeout=2).status
except OSError:
    answered = "refused"
open(sys.argv[1], "a").write(f"{answered} {sys.argv[3]}\\n")
"""


def _wait(condition, *, seconds: float, what: str):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if result := condition():
            return result
        time.sleep(0.05)
    pytest.fail(f"waited {seconds} s for {what}")


@pytest.fixture
def display():
    """A fresh Xvfb display the size of a laptop's screen."""
    for program in ("Xvfb", "xwd", "xwininfo"):
        if not shutil.which(program):
            missing(f"No {program}: sudo apt-get install -y xvfb x11-apps x11-utils")
    if not keys.available():
        missing("No libXtst to press keys: sudo apt-get install -y x11-utils")
    try:
        import _tkinter  # noqa: F401
    except ImportError:
        missing("This Python has no Tk: sudo apt-get install -y python3-tk")
    read, write = os.pipe()
    xvfb = subprocess.Popen(
        [
            *("Xvfb", "-displayfd", str(write), "-screen", "0", LAPTOP_SCREEN),
            "-dpi",
            "96",
            "-nolisten",
            "tcp",
        ],
        pass_fds=[write],
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    with os.fdopen(read) as answer:
        number = answer.readline().strip()
    yield f":{number}"
    xvfb.terminate()
    xvfb.wait(timeout=10)


def _window(display: str, title: str = "Five Tricks") -> tuple[str, str, int, int] | None:
    """The id, title, width and height of the window whose title starts with ``title``
    (the app's, or its dialog's), as xwininfo lists it."""
    tree = subprocess.run(
        ["xwininfo", "-display", display, "-root", "-tree"], capture_output=True, text=True
    ).stdout
    for line in tree.splitlines():
        if f'"{title}' in line and "x" in line:
            window, title = line.split()[0], line.split('"')[1]
            width, height = line.split('")')[1].split()[0].split("+")[0].split("x")
            return window, title, int(width), int(height)
    return None


def _title(display: str) -> str:
    found = _window(display)
    assert found is not None, "the window is there"
    return found[1]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _shot(display: str, window: str, name: str, folder: Path) -> list[list[tuple[int, int, int]]]:
    picture = xwd.take(display, window)
    xwd.write_png(picture, folder / f"window-{name}.png")
    return picture


def _has_colour(picture, colour: str) -> bool:
    wanted = _rgb(colour)
    return any(pixel == wanted for row in picture for pixel in row)


def _ring(picture) -> tuple[str, int] | None:
    """Where the focus ring is, on the window's left or right half ("left", "right"), and
    how many pixels thick its top edge is, a few pixels right of its top left corner (the
    first ring pixel, reading the picture row by row); None: no ring."""
    ring = _rgb(RING)
    corner = next(
        ((y, x) for y, row in enumerate(picture) for x, pixel in enumerate(row) if pixel == ring),
        None,
    )
    if corner is None:
        return None
    y, x = corner
    thickness = 0
    while picture[y + thickness][x + 6] == ring:
        thickness += 1
    return "left" if x < len(picture[0]) // 2 else "right", thickness


def _ringed(display: str, window: str, side: str):
    """A picture of the window once its focus ring is on ``side``."""
    return _wait(
        lambda: (shot := xwd.take(display, window)) and (_ring(shot) or ("",))[0] == side and shot,
        seconds=10,
        what=f"the focus ring on the {side}",
    )


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def _in_the_code(picture) -> list[tuple[int, int]]:
    """Where the QR code's square is: the white square on the right (the window's only
    white area there) and all inside it."""
    width = len(picture[0])
    right = [(x, y) for y, row in enumerate(picture) for x in range(width * 7 // 10, width)]
    white = [(x, y) for x, y in right if picture[y][x] == WHITE]
    left, top = min(x for x, _ in white), min(y for _, y in white)
    bottom = max(y for _, y in white)
    return [(x, y) for x, y in right if x >= left and top <= y <= bottom]


def _qr_modules(picture) -> list[list[bool]]:
    """The QR code's modules read off the picture: the black inside its square, sampled
    at each module's centre."""
    black = [(x, y) for x, y in _in_the_code(picture) if picture[y][x] == BLACK]
    x0, x1 = min(x for x, _ in black), max(x for x, _ in black)
    y0, y1 = min(y for _, y in black), max(y for _, y in black)
    assert x1 - x0 == y1 - y0, "the code is square"
    finder = next(x for x in range(x0, x1) if picture[y0][x] != BLACK) - x0  # 7 modules
    size = finder / 7
    count = round((x1 - x0 + 1) / size)
    return [
        [
            picture[round(y0 + (r + 0.5) * size)][round(x0 + (c + 0.5) * size)] == BLACK
            for c in range(count)
        ]
        for r in range(count)
    ]


def test_a_double_click_shows_the_window_preparing_then_ready_stops_by_keyboard_and_closes(
    display, tmp_path
):
    shots = REPO / "screenshots" if os.environ.get("SCREENSHOTS") else tmp_path
    shots.mkdir(exist_ok=True)
    port, opened = _free_port(), tmp_path / "opened"
    (tmp_path / "browser.py").write_text(RECORDER)
    environment = dict(
        os.environ,
        DISPLAY=display,
        FIVETRICKS_DATA_DIR=str(tmp_path / "data"),
        BROWSER=f"{sys.executable} {tmp_path / 'browser.py'} {opened} {port} %s",
        LANGUAGE="en",
    )
    log = (tmp_path / "window.log").open("w")
    app = subprocess.Popen(
        [sys.executable, "-m", "tournament.cli", "--port", str(port), "--workers", "1"],
        cwd=REPO,
        env=environment,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        window, title, width, height = _wait(
            lambda: _window(display), seconds=30, what="the window"
        )
        preparing = _shot(display, window, "preparing", shots)
        assert "preparing" in title
        # Small beside the browser on a 1366x768 screen.
        assert width <= 700
        assert height <= 450
        assert _has_colour(preparing, COLOURS[Phase.PREPARING])
        assert not _has_colour(preparing, COLOURS[Phase.READY])

        _wait(lambda: "ready" in _window(display)[1], seconds=90, what="ready")
        # The title changes a moment before Tk redraws the window's inside.
        ready = _wait(
            lambda: (
                (shot := xwd.take(display, window))
                and _has_colour(shot, COLOURS[Phase.READY])
                and shot
            ),
            seconds=10,
            what="the ready state drawn",
        )
        xwd.write_png(ready, shots / "window-ready.png")
        assert not _has_colour(ready, COLOURS[Phase.PREPARING])
        banner = (tmp_path / "window.log").read_text()
        address = banner.split("Phones on the same Wi-Fi reach this laptop at:")[1].split()[0]
        quiet = slice(QUIET_ZONE_MODULES, -QUIET_ZONE_MODULES)
        assert _qr_modules(ready) == [row[quiet] for row in qr_matrix(address)[quiet]]

        answered, link = _wait(
            lambda: opened.exists() and opened.read_text(), seconds=10, what="the browser"
        ).split()
        assert answered == "200", "the browser opens once the server answers, never before"
        assert link.startswith(f"http://127.0.0.1:{port}/console/sign-in/")

        the_keyboard_opens_the_console_and_stops_the_server(display, window, opened, shots)
        assert not answers_health(port)

        app.send_signal(signal.SIGTERM)  # closes the window of a stopped server
        assert app.wait(timeout=60) == 0
        assert _window(display) is None
    finally:
        if app.poll() is None:
            app.kill()
        log.close()


def the_keyboard_opens_the_console_and_stops_the_server(display, window, opened, shots) -> None:
    """ "Open the console" has the focus once it works: Return and the keypad's Enter each
    open the browser again. Tab, and "Stop the server" has a solid ring 3 pixels thick;
    Return asks (the question in the box itself), Escape keeps serving, Return again and
    Return in the box stop: the address's code is greyed out."""

    def opened_times() -> int:
        return len(opened.read_text().splitlines())

    keys.press(display, window, "Return")
    _wait(lambda: opened_times() == 2, seconds=10, what="Return to open the console")
    assert _ring(_ringed(display, window, "left")) == ("left", 3)  # pixels, at 96 dpi
    keys.press(display, window, "KP_Enter")
    _wait(lambda: opened_times() == 3, seconds=10, what="the keypad's Enter to open it")

    keys.press(display, window, "Tab")
    focused = _ringed(display, window, "right")
    xwd.write_png(focused, shots / "window-stop-focused.png")
    assert _ring(focused) == ("right", 3)

    def asked():
        return _window(display, "Stop the server?")

    keys.press(display, window, "Return")
    dialog = _wait(asked, seconds=10, what="Return on Stop to ask")
    _shot(display, dialog[0], "stop-asked", shots)
    keys.press(display, dialog[0], "Escape")
    _wait(lambda: asked() is None, seconds=10, what="Escape to keep serving")
    assert "ready" in _title(display)
    keys.press(display, window, "Return")  # the focus went back to Stop
    dialog = _wait(asked, seconds=10, what="Return on Stop to ask again")
    keys.press(display, dialog[0], "Return")

    _wait(lambda: "stopped" in _title(display), seconds=60, what="stopped")
    stopped = _wait(
        lambda: (
            (shot := xwd.take(display, window))
            and _has_colour(shot, COLOURS[Phase.STOPPED])
            and shot
        ),
        seconds=10,
        what="the stopped state drawn",
    )
    xwd.write_png(stopped, shots / "window-stopped.png")
    in_the_code = {stopped[y][x] for x, y in _in_the_code(stopped)}
    assert _rgb(GREYED) in in_the_code
    assert BLACK not in in_the_code
