"""``config.asgi``: a live game's stream goes to Django's ASGI handler (an async view that
waits as a coroutine), every other address to Django's WSGI handler run in the process's one
synchronous thread — the site served by ./run.sh."""

from __future__ import annotations

import asyncio
import json

import pytest
from asgiref.testing import ApplicationCommunicator

pytestmark = pytest.mark.usefixtures("no_loop_running")


def _get(path: str) -> tuple[int, dict[bytes, bytes], bytes]:
    from config.asgi import application

    async def run() -> tuple[int, dict[bytes, bytes], bytes]:
        scope = {"type": "http", "method": "GET", "path": path, "raw_path": path.encode(),
                 "query_string": b"", "root_path": "", "scheme": "http",
                 "http_version": "1.1", "headers": [(b"host", b"localhost")],
                 "server": ("localhost", 80), "client": ("127.0.0.1", 5000)}
        talk = ApplicationCommunicator(application, scope)
        await talk.send_input({"type": "http.request", "body": b""})
        start = await talk.receive_output(10)
        body = b""
        while True:
            part = await talk.receive_output(10)
            body += part.get("body", b"")
            if not part.get("more_body"):
                break
        return start["status"], dict(start["headers"]), body

    return asyncio.run(run())


@pytest.mark.django_db(transaction=True)
def test_pages_go_to_the_sync_handler_and_streams_to_the_async_view(settings):
    settings.ALLOWED_HOSTS = ["localhost"]
    status, _headers, body = _get("/health/")
    assert status == 200 and body
    status, headers, body = _get("/api/play/nothing/events/")
    assert status == 401 and "detail" in json.loads(body)   # the stream's own answer
    assert {k.lower(): v for k, v in headers.items()}[b"content-type"] == b"application/json"
