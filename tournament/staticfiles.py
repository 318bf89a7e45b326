"""Static files collected minified: our own scripts and style sheets lose their comments and
indentation at collectstatic, before WhiteNoise hashes and compresses them.

Terms:
    own file   a .js or .css file found in the project's static/ folder (a STATICFILES_DIRS
               entry), not an app's (the admin's, django-htmx's) and not one named *.min.*,
               which came minified. The repository keeps its comments and indentation; only
               the collected copy is minified.
    minify     rjsmin for scripts, rcssmin for style sheets: comments and whitespace out,
               nothing renamed, reordered or rewritten, so the browser reads the same
               program and the same rules (tests/tournament/test_staticfiles.py compares
               the scripts' syntax trees).
    collected  the copy in STATIC_ROOT. `manage.py serve` collects before its workers start
               and they serve that copy (settings.py, WHITENOISE_USE_FINDERS); the package's
               build collects with hashed names (setup.py).

Both storages minify in post_process, before their parent's: the collected copy is
overwritten with the minified text and then read back from STATIC_ROOT, so what Django
hashes and WhiteNoise gzips is the minified file, never the source.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import rcssmin
import rjsmin
from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import Storage
from whitenoise.storage import CompressedManifestStaticFilesStorage, CompressedStaticFilesStorage

# A found file, as collectstatic hands them to post_process: name -> (its storage, its path).
FoundFiles = dict[str, tuple[Storage, str]]


def minify(name: str, text: str) -> str | None:
    """``text`` minified for a file called ``name``; None for a kind we leave alone (not
    .js or .css) or a file that came minified (*.min.js)."""
    if ".min." in Path(name).name:
        return None
    if name.endswith(".js"):
        return rjsmin.jsmin(text)
    if name.endswith(".css"):
        return rcssmin.cssmin(text)
    return None


def own_folders() -> set[Path]:
    """The project's own static folders: STATICFILES_DIRS, with or without a prefix."""
    folders = set()
    for entry in settings.STATICFILES_DIRS:
        folder = entry[1] if isinstance(entry, tuple | list) else entry
        folders.add(Path(folder).resolve())
    return folders


def is_own(storage: Storage) -> bool:
    """Whether a finder's storage reads one of our folders (FileSystemFinder's do; an app's
    AppStaticStorage reads inside that app)."""
    location = getattr(storage, "location", None)
    return location is not None and Path(location).resolve() in own_folders()


def minify_own_files(storage: Storage, paths: FoundFiles, dry_run: bool) -> FoundFiles:
    """Overwrite each own file's copy in ``storage`` with its minified text, minified from
    the source every time (collectstatic skips copying a file it copied before, and the copy
    is already minified then), and point its entry at that copy; ``paths`` as they are on a
    dry run."""
    if dry_run:
        return paths
    found = dict(paths)
    for name, (source_storage, path) in paths.items():
        if not is_own(source_storage):
            continue
        with source_storage.open(path) as source:
            minified = minify(name, source.read().decode("utf-8"))
        if minified is None:
            continue
        # As HashedFilesMixin saves a file again: save() would pick another name. _save is
        # private to Django, and its stubs leave it out.
        storage.delete(name)
        storage._save(name, ContentFile(minified.encode("utf-8")))  # type: ignore[attr-defined]
        found[name] = (storage, name)
    return found


# Each storage minifies the own files before WhiteNoise's post_process (hashing,
# compressing) reads their copies. Two classes rather than one mixin: a mixin's
# super().post_process is unknown to the type checker.
class MinifiedStaticFilesStorage(CompressedStaticFilesStorage):
    """A checkout's: own files minified, then gzipped beside (WhiteNoise's storage)."""

    def post_process(
        self, paths: FoundFiles, dry_run: bool = False, **options: Any
    ) -> Iterator[tuple[str, str | None, Any]]:
        paths = minify_own_files(self, paths, dry_run)
        yield from super().post_process(paths, dry_run=dry_run, **options)


class MinifiedManifestStaticFilesStorage(CompressedManifestStaticFilesStorage):
    """The package's: own files minified, then hashed into their names and gzipped."""

    def post_process(
        self, paths: FoundFiles, dry_run: bool = False, **options: Any
    ) -> Iterator[tuple[str, str | None, Any]]:
        paths = minify_own_files(self, paths, dry_run)
        yield from super().post_process(paths, dry_run=dry_run, **options)
