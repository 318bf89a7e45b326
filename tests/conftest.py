"""Shared fixtures: small factories for events, players, tables and rounds.

Factories are imported inside the fixtures so the pure-core tests still run without
Django (`pytest -p no:django tests/tournament/rules/test_movement.py`).
"""

from __future__ import annotations

import pytest
from hypothesis import settings

# A shared 2-core machine (CI included) makes per-example timing noisy: no deadlines.
settings.register_profile("fivetricks", deadline=None, print_blob=True)
settings.load_profile("fivetricks")


def pytest_configure(config):
    # Password hashing is built to be slow; tests need users, not security.
    if config.pluginmanager.hasplugin("django"):
        from django.conf import settings as django_settings

        django_settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(scope="session", autouse=True)
def _backups_out_of_the_data_dir(request, tmp_path_factory):
    """On PostgreSQL every round close writes a JSON backup once it commits (browser tests
    commit): into a temporary folder, never the developer's var/backups."""
    if not request.config.pluginmanager.hasplugin("django"):
        return
    from django.conf import settings as django_settings

    django_settings.BACKUP_DIR = tmp_path_factory.mktemp("backups")


@pytest.fixture(autouse=True)
def _each_test_starts_in_english(request):
    """A test client's request in another language leaves that language active on the
    thread (LocaleMiddleware activates one per request and nothing deactivates it), and
    the next test would read its English in German. Each test starts from the default."""
    yield
    if request.config.pluginmanager.hasplugin("django"):
        from django.utils import translation

        translation.deactivate()


@pytest.fixture
def organizer(django_user_model):
    from tests import factories

    return factories.make_organizer(django_user_model, "ada")


@pytest.fixture
def signed_in(client, organizer):
    """A test client signed in as the event's organizer."""
    client.force_login(organizer)
    return client


@pytest.fixture
def event(organizer):
    from tests import factories

    return factories.make_event(owner=organizer)
