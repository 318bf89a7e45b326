"""Settings for the Five Tricks tournament manager, read from environment variables.

Terms: the *data directory* holds what belongs to one installation and stays out of
git: the SQLite database (unless DATABASE_URL names another), the generated secret key
(unless DJANGO_SECRET_KEY is set), and the SQLite database's backups (BACKUP_DIR, made by
tournament.writes.backups at the first backup; on PostgreSQL backups are kept in the
database). Importing these settings writes nothing: the folder is made when the database
first connects (tournament.sqlite3), the secret key is first used (tournament.common.folders)
or the first backup is taken. With PostgreSQL and DJANGO_SECRET_KEY it is never made.

Environment variables (all optional):
    FIVETRICKS_DATA_DIR   where the database and secret key live (default: ./var in a
                          checkout; installed, the user's data folder from platformdirs)
    FIVETRICKS_BACKUP_DIR where the SQLite database's backups go (default: backups/ in the
                          data directory); not used on PostgreSQL
    DJANGO_SECRET_KEY     overrides the generated key kept in the data directory; the same
                          on every app server of one installation
    DJANGO_DEBUG          "1" for development error pages
    DJANGO_ALLOWED_HOSTS  comma-separated host names; by default this machine's names and
                          LAN addresses (checked again while it runs), localhost and the
                          public URL's host
    DATABASE_URL          e.g. postgres://user:pass@host/db for hosted, multi-event use; a
                          connection attempt gives up after POSTGRES_CONNECT_TIMEOUT seconds
                          unless the URL says ?connect_timeout=N
    FIVETRICKS_PUBLIC_URL the address phones use (QR codes), e.g. http://192.168.1.20:8000;
                          one starting with https: turns on secure cookies, HSTS and CSRF
                          trusted origins for a hosted server
    FIVETRICKS_BEHIND_PROXY
                          "1" when an HTTPS proxy in front sets X-Forwarded-Proto: trust it,
                          redirect plain HTTP to HTTPS (all but the health check, /healthz),
                          and count failed sign-ins against the address the proxy appended
                          to X-Forwarded-For
    FIVETRICKS_HSTS_SECONDS
                          how long browsers keep to HTTPS once told (default: a year)
    FIVETRICKS_PORT       the port the server listens on, for links when no public URL is
                          set; `manage.py serve` sets it for its workers (default 8000)
    FIVETRICKS_SERVER_PID `manage.py serve` sets it for its workers: its own process, which
                          the console's "Stop the server" button stops on a laptop (never
                          on a hosted server; tournament.serving.server_stop)
    FIVETRICKS_STATIC_COLLECTED
                          `manage.py serve` sets it to "1" for its workers in a checkout,
                          once it has collected the static files: they then serve the
                          collected, minified and gzipped copies in STATIC_ROOT
    FIVETRICKS_BENCH      "1" adds a bare view at /bench/hello/ for `make bench`
    FIVETRICKS_TIME_ZONE  the zone times are shown in, e.g. Europe/Paris (default: the
                          zone TZ names, when it names one; else UTC)
    LOG_LEVEL             the level of the log on standard error (default: WARNING)
"""

from __future__ import annotations

import os
import re
import secrets
import warnings
import zoneinfo
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.functional import SimpleLazyObject

from tournament.common import network
from tournament.common.folders import make_folder
from tournament.serving import server_stop

if TYPE_CHECKING:
    from django_stubs_ext.settings import TemplatesSetting

BASE_DIR = Path(__file__).resolve().parent.parent
# A checkout has manage.py beside the apps; an installed package (a wheel, the double-click
# bundle) does not, and its folder may be read-only: nothing is ever written there.
INSTALLED_PACKAGE = not (BASE_DIR / "manage.py").is_file()
# The templates, static files and catalogues: the checkout's top-level folders, or the copy
# the package's build put inside the package (setup.py), beside the static files it
# collected with hashed names.
SITE_DIR = Path(__file__).resolve().parent / "site" if INSTALLED_PACKAGE else BASE_DIR


def _default_data_dir() -> Path:
    """./var in a checkout; installed, the user's data folder (%LOCALAPPDATA%\\fivetricks,
    ~/Library/Application Support/fivetricks, ~/.local/share/fivetricks)."""
    if not INSTALLED_PACKAGE:
        return BASE_DIR / "var"
    import platformdirs

    return Path(platformdirs.user_data_dir("fivetricks", appauthor=False))


DATA_DIR = Path(os.environ.get("FIVETRICKS_DATA_DIR") or _default_data_dir()).resolve()
# Where copies of the SQLite database go (tournament.writes.backups); on PostgreSQL backups
# are kept in the database and this folder is not used.
BACKUP_DIR = Path(os.environ.get("FIVETRICKS_BACKUP_DIR") or DATA_DIR / "backups").resolve()


def _env_flag(name: str, default: bool = False) -> bool:
    return os.environ.get(name, "1" if default else "0").strip().lower() in {"1", "true", "yes"}


def _load_or_create_secret_key() -> str:
    """Keep one generated key per installation, so sign-ins survive restarts."""
    key_file = make_folder(DATA_DIR) / "secret_key"
    try:
        return key_file.read_text().strip()
    except FileNotFoundError:
        key = secrets.token_urlsafe(50)
        # O_EXCL: if two processes start at once, exactly one writes the key.
        try:
            fd = os.open(key_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            return key_file.read_text().strip()
        with os.fdopen(fd, "w") as handle:
            handle.write(key)
        return key


# Read (or made) the first time something signs or checks a signature, not at import.
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY") or SimpleLazyObject(_load_or_create_secret_key)
DEBUG = _env_flag("DJANGO_DEBUG")
PUBLIC_URL = os.environ.get("FIVETRICKS_PUBLIC_URL", "").rstrip("/")
PORT = int(os.environ.get("FIVETRICKS_PORT", "8000"))
BENCH = _env_flag("FIVETRICKS_BENCH")
# The serving process the console's "Stop the server" button signals; None where the console
# may not stop the server (not started by `serve`, or hosted: tournament.serving.server_stop).
STOPPABLE_SERVER_PID = server_stop.stoppable_pid(os.environ, os.getppid())
if hosts := os.environ.get("DJANGO_ALLOWED_HOSTS", "").strip():
    ALLOWED_HOSTS = [h.strip() for h in hosts.split(",") if h.strip()]
else:
    # Not "*": links never come from the Host header, but a forged one still must not
    # reach anything that builds an absolute URL from the request.
    ALLOWED_HOSTS = network.AllowedHosts(network.default_allowed_hosts(PUBLIC_URL))

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "tournament",
    "tables",
]

MIDDLEWARE = [
    # First: /healthz answers any Host, over plain HTTP, with no session (its docstring).
    "tournament.middleware.HealthCheckMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # A link screen's unchanged poll is answered here, after one query: 500 players'
    # phones poll a thousand times a second (tournament.common.polling, Terms: early).
    "tournament.middleware.UnchangedPollMiddleware",
    # Static files are answered here, before the pages' headers below.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "tournament.middleware.PageHeadersMiddleware",
    "django.middleware.gzip.GZipMiddleware",
    # Above LocaleMiddleware, so it sees the Content-Language that one sets.
    "tournament.middleware.PageLanguageMiddleware",
    # Every request picks its language first, so even a refusal below speaks it.
    "django.middleware.locale.LocaleMiddleware",
    # Before anything reads a request's body (sessions do not; CSRF does).
    "tournament.middleware.RequestCharsetMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, so it answers a view's refusal or full disk first (its docstring).
    "tournament.middleware.FaultsMiddleware",
]

# `make bench` measures the server against a bare view (bench/urls.py adds it); the
# production URLconf knows nothing of the bench.
ROOT_URLCONF = "bench.urls" if BENCH else "tournament.urls"
WSGI_APPLICATION = "tournament.serving.wsgi.application"
ASGI_APPLICATION = "tournament.serving.asgi.application"

TEMPLATES: list[TemplatesSetting] = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [SITE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "tournament.common.network.address_context",
                "tournament.common.disk.disk_context",
                "tournament.common.languages.languages_context",
                "tournament.common.product.product_context",
                "tournament.views.access.access_context",
                "tournament.views.organizer.server.stop_context",
            ],
            # {{ name|bdi }} in every template: a player's name is always isolated.
            "builtins": ["tournament.templatetags.names"],
        },
    },
]

_SQLITE_OPTIONS = {
    # WAL lets phones read while one writer commits; IMMEDIATE takes the write lock at
    # BEGIN, so two writers queue instead of failing with "database is locked" mid-way.
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
    # Django runs init_command when it opens a connection; with CONN_MAX_AGE below that is
    # once per server thread, not once per request. synchronous=FULL: a reported game
    # survives a power cut or a laptop lid closed mid-commit (NORMAL in WAL mode may lose
    # the last commits); it costs one fsync per write, measured in docs/PERFORMANCE.md.
    "init_command": (
        "PRAGMA journal_mode=WAL;PRAGMA synchronous=FULL;PRAGMA foreign_keys=ON;"
        "PRAGMA busy_timeout=20000"
    ),
}
# Keep connections between requests: opening one (and its PRAGMAs, or a PostgreSQL
# handshake) would otherwise cost more than the 304 that most polls answer.
_CONN_MAX_AGE = 600

# Seconds a new PostgreSQL connection may take before it fails. libpq's default waits for
# the operating system (two minutes on Linux for a host that drops packets), holding a
# server thread and the load balancer's health check (/healthz) that long. A
# ?connect_timeout=N in DATABASE_URL wins.
POSTGRES_CONNECT_TIMEOUT = 5

if database_url := os.environ.get("DATABASE_URL"):
    DATABASES = {
        "default": dj_database_url.parse(
            database_url, conn_max_age=_CONN_MAX_AGE, conn_health_checks=True
        )
    }
    if DATABASES["default"]["ENGINE"].endswith("postgresql"):
        DATABASES["default"].setdefault("OPTIONS", {}).setdefault(
            "connect_timeout", POSTGRES_CONNECT_TIMEOUT
        )
else:
    DATABASES = {
        "default": {
            "ENGINE": "tournament.sqlite3",  # Django's, making DATA_DIR at first connection
            "NAME": str(DATA_DIR / "fivetricks.sqlite3"),
            "OPTIONS": _SQLITE_OPTIONS,
            "CONN_MAX_AGE": _CONN_MAX_AGE,
        }
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "organizer:login"
LOGIN_REDIRECT_URL = "organizer:events"
LOGOUT_REDIRECT_URL = "organizer:login"
# A one-time sign-in link printed by `make run` stays valid for a day.
PASSWORD_RESET_TIMEOUT = 24 * 60 * 60

# The languages an event can run in. Each is named in its own language, so whoever needs
# a switcher can read it (tournament.common.languages). Adding one: README, "Adding a language".
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("fr", "Français"), ("es", "Español"), ("de", "Deutsch")]
LOCALE_PATHS = [SITE_DIR / "locale"]
USE_I18N = True
# English keeps day-month-year and the 24-hour clock the product has always shown; the
# other languages use Django's own formats for them.
FORMAT_MODULE_PATH = ["tournament.formats"]


def _zone_name(value: str) -> str | None:
    """The IANA zone name ``value`` gives (as TZ may: "Europe/Paris", ":Europe/Paris",
    ":/etc/localtime"), or None when it gives none that Django accepts."""
    name = value.strip().removeprefix(":")
    if name.startswith("/"):  # a zone file: its name is its path under a zoneinfo folder
        parts = Path(name).resolve().parts
        if "zoneinfo" not in parts:
            return None
        name = "/".join(parts[len(parts) - parts[::-1].index("zoneinfo") :])
    try:
        zoneinfo.ZoneInfo(name)
    except (ValueError, OSError, zoneinfo.ZoneInfoNotFoundError):
        return None
    # Django refuses a name that is not a file in this folder when the folder exists.
    system_zones = Path("/usr/share/zoneinfo")
    if system_zones.exists() and not system_zones.joinpath(*name.split("/")).is_file():
        return None
    return name


def _time_zone() -> str:
    """FIVETRICKS_TIME_ZONE, else the zone TZ names, else UTC.

    TZ belongs to the C library, which reads forms Django does not (":/etc/localtime", "",
    "CET-1CEST"); passed on as it was, they stopped the server from starting.
    """
    if chosen := os.environ.get("FIVETRICKS_TIME_ZONE", "").strip():
        if _zone_name(chosen) != chosen:
            raise ImproperlyConfigured(
                f"FIVETRICKS_TIME_ZONE={chosen!r} is not a time zone name such as "
                "Europe/Paris or UTC."
            )
        return chosen
    return _zone_name(os.environ.get("TZ", "")) or "UTC"


TIME_ZONE = _time_zone()
USE_TZ = True

STATIC_URL = "static/"
if INSTALLED_PACKAGE:
    # Collected when the package was built, with hashed names that WhiteNoise serves with a
    # ten-year cache (a changed file gets a new name); the server never collects again. Our
    # own scripts and style sheets were minified first (tournament.staticfiles).
    STATICFILES_DIRS = []
    STATIC_ROOT = SITE_DIR / "staticfiles"
    _STATIC_STORAGE = "tournament.staticfiles.MinifiedManifestStaticFilesStorage"
    WHITENOISE_USE_FINDERS = False
else:
    STATICFILES_DIRS = [BASE_DIR / "static"]
    STATIC_ROOT = BASE_DIR / "staticfiles"
    _STATIC_STORAGE = "tournament.staticfiles.MinifiedStaticFilesStorage"
    # With finders, WhiteNoise serves the sources in static/ as they are (no .gz beside
    # them, so uncompressed), ahead of STATIC_ROOT: right for tests, runserver and
    # DJANGO_DEBUG's autorefresh, which show an edit at once. The workers of
    # `manage.py serve` serve what it has just collected, minified and gzipped.
    WHITENOISE_USE_FINDERS = DEBUG or not _env_flag("FIVETRICKS_STATIC_COLLECTED")
# collectstatic makes STATIC_ROOT (serve runs it first in a checkout); until then WhiteNoise
# finds the files in STATICFILES_DIRS and need not warn that the folder is missing.
warnings.filterwarnings("ignore", message=f"No directory at: {re.escape(str(STATIC_ROOT))}")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": _STATIC_STORAGE},
}
WHITENOISE_AUTOREFRESH = DEBUG

SESSION_COOKIE_AGE = 14 * 24 * 60 * 60
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False
LANGUAGE_COOKIE_HTTPONLY = True
LANGUAGE_COOKIE_SAMESITE = "Lax"
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
SECURE_REFERRER_POLICY = "same-origin"

# Hosted behind HTTPS: the public URL says so. A LAN event stays on plain HTTP, where
# secure cookies would never be sent back.
if PUBLIC_URL.startswith("https:"):
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
    CSRF_TRUSTED_ORIGINS = ["{0.scheme}://{0.netloc}".format(urlsplit(PUBLIC_URL))]
    SECURE_HSTS_SECONDS = int(os.environ.get("FIVETRICKS_HSTS_SECONDS", 365 * 24 * 60 * 60))
    # Subdomains of the event's own host name only, e.g. *.tricks.example.org.
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    # Only a proxy that sets X-Forwarded-Proto itself (and drops the client's) may be
    # trusted with it; otherwise any client could claim HTTPS.
    if _env_flag("FIVETRICKS_BEHIND_PROXY"):
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
        SECURE_SSL_REDIRECT = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # A forged Host header is one warning line, not a 14-line traceback
    # (tournament.common.logs: Terms: forged host).
    "filters": {"one_line": {"()": "tournament.common.logs.OneLineWarning"}},
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "loggers": {"django.security.DisallowedHost": {"filters": ["one_line"]}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}

# --- Sign-in rate limits (tournament.writes.signin) -------------------------------------------
# Failed password sign-ins count per account from one client address, and per address.
# Behind the trusted HTTPS proxy above every request comes from the proxy's own address, so
# there the client is the address that proxy appended to X-Forwarded-For (the last one);
# elsewhere it is REMOTE_ADDR, and a client's X-Forwarded-For is ignored.
SIGN_IN_ADDRESS_FROM_PROXY = PUBLIC_URL.startswith("https:") and _env_flag(
    "FIVETRICKS_BEHIND_PROXY"
)
