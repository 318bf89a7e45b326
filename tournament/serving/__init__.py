"""What runs the server: the entry points granian imports, the bridge to Django, the
screens' live channel, and the pieces of a server's life (one per room, its warm-up,
its stop, its workers' watch on their main process).

Terms:
    entry        what a server imports: ``asgi.application`` (the whole site, as `manage.py
                 serve` runs it) and ``wsgi.application`` (Django alone, with its warm-up
                 and its parent watch; the ASGI entry wraps it).
    bridge       Django's WSGI application run by the ASGI server in a pool of threads
                 (``bridge.ThreadedWSGI``).
    live channel the screen tables' server-sent events (``live_channel``): its stream
                 coroutine, its watcher and its thread pools. What it pushes is the
                 tables' own (tables.views.screen_pushed, tables.reads).
    one server   one `serve` per port and data folder (``one_server``).
    parent watch a server process ends when the process that started it ends
                 (``parent_watch``).
    warm-up      a worker's templates, catalogues and URLs loaded before its first
                 request (``warm_up``).
    server stop  when and how the laptop's own console may stop the server
                 (``server_stop``), and a stop that ends the open streams (``stopping``).

The package sits beside the views (tests/test_architecture.py): a view may stop the
server, and the live channel pushes what a view draws.
"""
