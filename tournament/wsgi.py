"""WSGI entry point, served by granian (`manage.py serve`, `make run`) or any WSGI server."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")

application = get_wsgi_application()
