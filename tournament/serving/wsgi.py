"""WSGI entry point, served by granian (`manage.py serve`, `make run`) or any WSGI server.

Each worker imports it once: the app is made, then warmed up before the first request
(tournament.serving.warm_up: templates compiled, catalogues read, the collector told to
leave what the worker now holds alone). A worker also watches its main process, and stops
when that one ends, even killed (tournament.serving.parent_watch).
"""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")

application = get_wsgi_application()

from tournament.serving.warm_up import warm_up  # noqa: E402  (needs the app set up)

warm_up()

from tournament.serving.parent_watch import exit_with_parent  # noqa: E402

# A worker whose main process was killed stops serving (tournament.serving.parent_watch).
exit_with_parent()
