"""WSGI entry point, served by granian (`manage.py serve`, `make run`) or any WSGI server.

Each worker imports it once: the app is made, then warmed up before the first request
(tournament.common.warm_up: templates compiled, catalogues read, the collector told to
leave what the worker now holds alone).
"""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")

application = get_wsgi_application()

from tournament.common.warm_up import warm_up  # noqa: E402  (needs the app set up)

warm_up()
