"""The site's synchronous pages behind the ASGI door (``config.asgi``): Django's WSGI handler,
each request's synchronous work run in the process's one page thread, as a synchronous gunicorn
worker runs it, while the event loop alone talks to the clients.

Why not asgiref's ``WsgiToAsgi``, which this replaces: it runs the WSGI application in asgiref's
thread-sensitive executor and sends each part of the answer back with ``async_to_sync`` from
inside that thread. ``async_to_sync`` runs the send in the event loop under a copy of the page
thread's context, in which asgiref has noted that thread's executor; when that send ends a
response, uvicorn resumes reading the connection from inside it, and the next request on the
same keep-alive connection starts in a task that inherits that context (asyncio lets context
leak this way: CPython issue 140947). That request then hands its work to the previous
request's executor, which has quit: ``RuntimeError: CurrentThreadExecutor already quit or is
broken`` and a 500 — a third of a browser's parallel requests. It also never closed the
response, so Django's ``request_finished`` (which closes old database connections) never ran.

Here the page thread never calls back into the event loop: the loop hands the thread a request
(``loop.run_in_executor``, which passes no context), the thread runs Django and returns the
status, headers and the first part of the body, and the loop sends them; a long body (a static
file) is read in further parts the same way. So no request sees another's context, a slow
client holds no thread (the thread is free while the loop waits on the socket), and the
response is closed in the page thread, firing ``request_finished`` as a WSGI server does.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from tempfile import SpooledTemporaryFile
from typing import IO, Any

# A body larger than this is read from the WSGI iterable in several hops to the page thread,
# each sent before the next is read (a static file streams, its memory bounded).
PART_BYTES = 256 * 1024
# A request body larger than this waits on disk, not in memory, until the view reads it.
BODY_IN_MEMORY = 64 * 1024

WsgiApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


def wsgi_environ(scope: dict[str, Any], body: IO[bytes]) -> dict[str, Any]:
    """The WSGI environ of an ASGI HTTP scope (PEP 3333's names; headers as ``HTTP_*``, repeated
    ones joined by commas)."""
    script_name = scope.get("root_path", "").encode("utf8").decode("latin1")
    path_info = scope["path"].encode("utf8").decode("latin1")
    if script_name and path_info.startswith(script_name):
        path_info = path_info[len(script_name):]
    server = scope.get("server") or ("localhost", 80)
    environ: dict[str, Any] = {
        "REQUEST_METHOD": scope["method"],
        "SCRIPT_NAME": script_name,
        "PATH_INFO": path_info,
        "QUERY_STRING": scope.get("query_string", b"").decode("latin1"),
        "SERVER_NAME": server[0],
        "SERVER_PORT": str(server[1] if server[1] is not None else 80),
        "SERVER_PROTOCOL": f"HTTP/{scope.get('http_version', '1.1')}",
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": scope.get("scheme", "http"),
        "wsgi.input": body,
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    if scope.get("client"):
        environ["REMOTE_ADDR"] = scope["client"][0]
    for raw_name, raw_value in scope.get("headers", []):
        name = raw_name.decode("latin1").upper().replace("-", "_")
        if name not in ("CONTENT_LENGTH", "CONTENT_TYPE"):
            name = f"HTTP_{name}"
        value = raw_value.decode("latin1")
        environ[name] = f"{environ[name]},{value}" if name in environ else value
    return environ


class _Exchange:
    """One request's run of the WSGI application; every method but the constructor runs in
    the page thread."""

    def __init__(self, app: WsgiApp, environ: dict[str, Any]) -> None:
        self._app = app
        self._environ = environ
        self._iterable: Iterable[bytes] | None = None
        self._parts: Iterator[bytes] = iter(())
        self._written: list[bytes] = []
        self.status = 500
        self.headers: list[tuple[bytes, bytes]] = []
        self.closed = False

    def _start_response(self, status: str, headers: list[tuple[str, str]],
                        _exc_info: Any = None) -> Callable[[bytes], None]:
        # Nothing is sent before the application returns, so a second call (an error page
        # after a failure, PEP 3333's exc_info) simply replaces the first.
        self.status = int(status.split(" ", 1)[0])
        self.headers = [(name.lower().encode("latin1"), value.encode("latin1"))
                        for name, value in headers]
        return self._written.append    # PEP 3333's write(): kept and sent first

    def begin(self) -> tuple[bytes, bool]:
        """Run the application: the body's first part and whether more follows."""
        self._iterable = self._app(self._environ, self._start_response)
        self._parts = iter(self._iterable)
        return self.next_part()

    def next_part(self) -> tuple[bytes, bool]:
        """The body's next part (up to about ``PART_BYTES``) and whether more follows; the
        response is closed after its last part."""
        parts, size = self._written, sum(len(p) for p in self._written)
        self._written = []
        for part in self._parts:
            if part:
                parts.append(part)
                size += len(part)
            if size >= PART_BYTES:
                return b"".join(parts), True
        self.close()
        return b"".join(parts), False

    def close(self) -> None:
        """Close the response (Django's ``request_finished``: old database connections go)."""
        if not self.closed:
            self.closed = True
            close = getattr(self._iterable, "close", None)
            if close is not None:
                close()


class SyncPages:
    """An ASGI application running a WSGI application in one thread of its own."""

    def __init__(self, app: WsgiApp) -> None:
        self._app = app
        # The page thread, as an executor of one; a test server hands it the test's database
        # connection through it (tests/production_server.py).
        self.thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pages")

    async def __call__(self, scope: dict[str, Any], receive: Callable[..., Any],
                       send: Callable[..., Any]) -> None:
        if scope["type"] != "http":
            raise ValueError(f"The pages answer HTTP only, not {scope['type']}.")
        with SpooledTemporaryFile(max_size=BODY_IN_MEMORY) as body:
            while True:
                message = await receive()
                if message["type"] == "http.disconnect":
                    return                  # the client left before asking in full
                body.write(message.get("body", b""))
                if not message.get("more_body"):
                    break
            body.seek(0)
            await self._answer(_Exchange(self._app, wsgi_environ(scope, body)), send)

    async def _answer(self, exchange: _Exchange, send: Callable[..., Any]) -> None:
        loop = asyncio.get_running_loop()
        try:
            part, more = await loop.run_in_executor(self.thread, exchange.begin)
            await send({"type": "http.response.start", "status": exchange.status,
                        "headers": exchange.headers})
            await send({"type": "http.response.body", "body": part, "more_body": more})
            while more:
                part, more = await loop.run_in_executor(self.thread, exchange.next_part)
                await send({"type": "http.response.body", "body": part, "more_body": more})
        finally:
            if not exchange.closed:     # the client left, or sending failed, mid-answer
                await loop.run_in_executor(self.thread, exchange.close)
