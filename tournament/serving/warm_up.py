"""A server worker's start: what the first requests would otherwise load, loaded before
the first one, and then set aside from Python's garbage collector.

Terms:
    warm        every template of the site compiled (Django's cached loader keeps each
                one for the life of the process), every language's catalogue read, and
                the URLs mapped in every language (what reverse() and resolve() build
                at their first call: about 20 ms).
                Otherwise the first phones to open a page after a start each pay for it,
                in the same half second.
    full sweep  Python's collection of its oldest generation: it walks every object the
                process still holds, with the GIL held, so every thread of the worker
                stops meanwhile. A worker holding Django, the app and its templates took
                50 to 78 ms a sweep, about every ten seconds under a room's polls: the
                slowest reports of the live-room bench were the ones caught in one
                (docs/PERFORMANCE.md, issue 23).
    freeze      gc.freeze(): what the process holds at that moment is moved out of the
                collector's reach for good: still freed when nothing refers to it any
                more, but never swept, so a cycle among those objects would stay (what a
                worker holds at start is kept for its life anyway). Sweeps then walk only
                what requests made since.

tournament.serving.wsgi calls warm_up() once, in each worker, before the first request.
"""

from __future__ import annotations

import contextlib
import gc
import logging
from pathlib import Path

from django.conf import settings
from django.template import engines
from django.urls import Resolver404, get_resolver, resolve
from django.utils import translation

logger = logging.getLogger(__name__)


def template_names() -> list[str]:
    """The names of the site's own templates (the apps keep none of their own): its
    HTML files, so an editor's or a file manager's leftovers there are never read."""
    folders = [Path(folder) for engine in settings.TEMPLATES for folder in engine["DIRS"]]
    return sorted(
        path.relative_to(folder).as_posix()
        for folder in folders
        for path in folder.rglob("*.html")
        if path.is_file()
    )


def warm_up() -> int:
    """Compile the site's templates, read each language's catalogue, and freeze what the
    worker now holds (see Terms). Returns how many templates were compiled."""
    engine = engines["django"]
    compiled = 0
    for name in template_names():
        try:
            engine.get_template(name)
            compiled += 1
        except Exception:  # a warm-up must never keep the server from serving
            # A page that fails says so when it is asked for, in its own words.
            logger.warning("Not compiled at start: %s", name, exc_info=True)
    resolver = get_resolver()
    with translation.override(None):
        for code, _name in settings.LANGUAGES:
            translation.activate(code)
            translation.gettext("Round")  # reads the language's catalogue
            resolver.reverse_dict  # noqa: B018 (maps every URL name, once per language)
    with contextlib.suppress(Resolver404):
        # A path no URL matches: every pattern's expression is compiled on the way.
        resolve("/-/warm-up/-/")
    gc.collect()
    gc.freeze()
    return compiled
