"""The WSGI application under the name 0.2.0's hosting guide gave it
(`tournament.wsgi:application`), so a server set up then still starts: the application is
tournament.serving.wsgi's (docs/DEPLOY.md names that one now)."""

from tournament.serving.wsgi import application

__all__ = ["application"]
