"""The package's one build step beyond setuptools' own (pyproject.toml holds the rest).

Terms:
    site folder  tournament/site/ inside the built package: copies of the checkout's
                 top-level templates/ and locale/ (with the compiled .mo catalogues), and
                 staticfiles/, the static files collected with hashed names and a manifest,
                 our own scripts and style sheets minified first (tournament.staticfiles,
                 on WhiteNoise's CompressedManifestStaticFilesStorage). tournament.settings
                 reads it when no manage.py sits beside the apps, so an installed package
                 never collects, or writes anything, into its own folder.

The repository keeps its layout; only the build maps the folders in. An editable install
(`make install`) runs from the checkout and needs none of this.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
# The apps whose static files the pages use, beside the project's own static/ folder:
# the admin's and htmx (django-htmx). Keep in step with INSTALLED_APPS.
APPS_WITH_STATIC = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.messages",
    "django.contrib.sessions",
    "django.contrib.staticfiles",
    "django_htmx",
]


def collect_static(target: Path) -> None:
    """Collect every static file into ``target`` with hashed names and a manifest."""
    import django
    from django.conf import settings
    from django.core.management import call_command

    # The storage is ours (tournament.staticfiles); the build's process may not have the
    # checkout on its path.
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    settings.configure(
        INSTALLED_APPS=APPS_WITH_STATIC,
        STATIC_URL="static/",
        STATICFILES_DIRS=[ROOT / "static"],
        STATIC_ROOT=target,
        STORAGES={
            "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
            "staticfiles": {"BACKEND": "tournament.staticfiles.MinifiedManifestStaticFilesStorage"},
        },
    )
    django.setup()
    call_command("collectstatic", interactive=False, verbosity=0)


class BuildWithSite(build_py):
    """setuptools' build_py, then the site folder (see Terms) inside tournament/."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        site = Path(self.build_lib) / "tournament" / "site"
        shutil.rmtree(site, ignore_errors=True)
        shutil.copytree(ROOT / "templates", site / "templates")
        shutil.copytree(ROOT / "locale", site / "locale", ignore=shutil.ignore_patterns("*.po"))
        collect_static(site / "staticfiles")


setup(cmdclass={"build_py": BuildWithSite})
