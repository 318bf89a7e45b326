"""ASGI entry point, served by granian (`manage.py serve`, `make run`): the whole site.

Terms:
    live channel  the screen tables' server-sent events (tournament.serving.live_channel):
                  one coroutine per open stream, routed here before Django (its path is
                  the URLconf's: live_channel.stream_path), so hundreds of open streams
                  hold no thread. A stop signal ends them (tournament.serving.stopping),
                  watched from the lifespan's startup.
    site          everything else: Django's WSGI application (tournament.serving.wsgi, with
                  its warm-up and its watch on the main process) run in a pool of threads
                  (tournament.serving.bridge), as granian's WSGI workers ran it; the pool's
                  size is the serve command's --threads (FIVETRICKS_THREADS).
"""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")

# Django is set up by this import, before the live channel's models are imported.
from tournament.serving.wsgi import application as django_application

# isort: split
from django.conf import settings

from tournament.serving.bridge import ThreadedWSGI
from tournament.serving.live_channel import stream, stream_path
from tournament.serving.stopping import until_stop, watch_for_stop

THREADS = max(1, int(os.environ.get("FIVETRICKS_THREADS") or 4))
# A body past Django's own threshold waits for its thread in a file (bridge, Terms: body).
site = ThreadedWSGI(django_application, threads=THREADS, spool=settings.FILE_UPLOAD_MAX_MEMORY_SIZE)
STREAM_PATH = stream_path()


async def application(scope, receive, send):
    if scope["type"] == "http" and (found := STREAM_PATH.fullmatch(scope["path"])):
        await stream(scope, until_stop(receive), send, found["token"])
        return
    if scope["type"] == "lifespan":
        # The server set its own stop signals' handlers by now: this one goes beside them.
        watch_for_stop()
    await site(scope, receive, send)
