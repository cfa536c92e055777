"""The gunicorn worker ``./run.sh`` serves the site with: uvicorn's, under gunicorn's process
management (``gunicorn config.asgi:application -k config.asgi_worker.Worker``).

Why ASGI: a game between two people is followed live by server-sent events
(``play.streams.events``), each an open connection that waits; under ASGI a waiting stream is a
coroutine, not a held worker. The application has two doors (``config/asgi.py``): a stream goes
to Django's ASGI handler, where it waits; every other address goes to Django's WSGI handler, run
whole in the process's one page thread (``config.sync_pages``), one request after another, as
gunicorn's synchronous workers run it (no thread of its own per request). Lifespan events are
off (Django does not use them).
"""

from __future__ import annotations

from typing import Any, ClassVar

from uvicorn_worker import UvicornWorker


class Worker(UvicornWorker):  # type: ignore[misc]    # an untyped base
    # reset_contextvars: each request starts in an empty context, so nothing a request's task
    # set (asgiref's note of a thread's executor, say) reaches the next request on the same
    # keep-alive connection through asyncio's context leak (CPython issue 140947).
    CONFIG_KWARGS: ClassVar[dict[str, Any]] = {"loop": "auto", "http": "auto",
                                                "lifespan": "off", "reset_contextvars": True}
