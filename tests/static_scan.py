"""WhiteNoise's scan of the static files, made once per test process.

Terms:
    scan    what WhiteNoiseMiddleware does when it is made: it lists every static file
            (through the finders, and in STATIC_ROOT when there is one) and builds each
            file's headers. A server makes its middleware once; Django's test Client makes
            it afresh for each client, so a suite of a few thousand clients scanned the
            same few hundred files a few thousand times: a quarter of `make check`'s CPU.

scan_static_files_once() keeps each scan's result by where it looked (the folder and its
last change, or the finders' folders) and hands it to every later middleware, so a test
still gets a fresh middleware, and the same files, headers and answers, as before.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from whitenoise.middleware import WhiteNoiseMiddleware


def _changed(path: object) -> int | None:
    """When the folder last changed (a file added or removed), or None if it is not there."""
    try:
        return os.stat(str(path)).st_mtime_ns
    except OSError:
        return None


def _kept(scan: Callable, key: Callable) -> Callable:
    scans: dict[tuple, dict] = {}

    def scan_once(self: WhiteNoiseMiddleware, *args, **kwargs) -> None:
        if self.autorefresh:  # it looks each file up when asked, and scans nothing
            scan(self, *args, **kwargs)
            return
        found = key(self, *args, **kwargs)
        if found not in scans:
            before = dict(self.files)
            scan(self, *args, **kwargs)
            scans[found] = {
                url: static_file
                for url, static_file in self.files.items()
                if before.get(url) is not static_file
            }
        # What the scan wrote, over what was there, as the scan itself does.
        self.files.update(scans[found])

    return scan_once


def scan_static_files_once() -> None:
    from django.conf import settings

    WhiteNoiseMiddleware.add_files = _kept(
        WhiteNoiseMiddleware.add_files,
        lambda self, root, prefix=None: (root, prefix, _changed(root), self.max_age),
    )
    WhiteNoiseMiddleware.add_files_from_finders = _kept(
        WhiteNoiseMiddleware.add_files_from_finders,
        lambda self: (
            "finders",
            self.static_prefix,
            tuple(map(str, settings.STATICFILES_DIRS)),
            tuple(_changed(folder) for folder in settings.STATICFILES_DIRS),
            self.max_age,
        ),
    )
