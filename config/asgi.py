"""ASGI entry point (``./run.sh``: ``gunicorn config.asgi:application -k
config.asgi_worker.Worker``; or ``uvicorn config.asgi:application``).

Two doors, by path:

- a live game's stream (``/api/play/<uid>/events/``, ``play.streams.events``, and a spectator's
  ``/api/play/<uid>/watch/events/``: async views) goes to
  Django's ASGI handler, where it waits as a coroutine;
- everything else — the site's views and middleware are synchronous — goes to Django's WSGI
  handler, run whole in the process's one page thread (``config.sync_pages``), one request
  after another, as gunicorn's synchronous workers run it: one hop to that thread per request,
  its database connection kept (``CONN_MAX_AGE``), while the event loop alone reads and writes
  the sockets (a slow client holds no thread).

Why not Django's ASGI handler for every page: it runs each request's synchronous code in a new
thread of that request's own (a new database connection each) and hops to it and back for every
middleware; on this machine that cost about six times a synchronous worker's CPU per page
(``manage.py loadtest --serve --server asgi``). The stream's handler here skips that per-request
thread too (``OneSyncThreadHandler``): its middleware runs in asgiref's one synchronous thread,
so a waiting stream holds no thread. ``docs/running.md`` tells how the site is served and why.
"""

from __future__ import annotations

import os
import re
from typing import Any

import django
from django.core.handlers.asgi import ASGIHandler
from django.core.handlers.wsgi import WSGIHandler

from config.sync_pages import SyncPages

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

STREAMS = re.compile(r"^/api/play/[^/]+/(watch/)?events/$")


class OneSyncThreadHandler(ASGIHandler):
    """Django's ASGI handler less its per-request thread: thread-sensitive code goes to the
    process's one synchronous thread."""

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not "
                             f"{scope['type']}.")
        await self.handle(scope, receive, send)


django.setup(set_prefix=False)
streams = OneSyncThreadHandler()
pages = SyncPages(WSGIHandler())


async def application(scope: Any, receive: Any, send: Any) -> None:
    if scope["type"] == "http" and STREAMS.match(scope.get("path", "")):
        await streams(scope, receive, send)
    else:
        await pages(scope, receive, send)
