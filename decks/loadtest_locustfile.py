"""The visitor ``manage.py loadtest --tool locust`` runs in locust: one address, as fast as the
server answers (no think time). The address comes from the environment the command sets, and
each successful request's time (ms) is written, one a line, to ``CARDLAB_LOAD_LATENCIES`` when
locust stops, so the command can pool several runs' percentiles; beside it (``….span``) the
seconds from the first request's start to the last one's end, which the command divides the
requests by (locust's own requests per second counts whole seconds: a run of a few seconds
would read several times too fast)."""

import json
import os
import time

from locust import FastHttpUser, constant, events, task

METHOD = os.environ.get("CARDLAB_LOAD_METHOD", "GET")
PATH = os.environ.get("CARDLAB_LOAD_PATH", "/health/")
BODY = os.environ.get("CARDLAB_LOAD_BODY", "").encode() or None
HEADERS = json.loads(os.environ.get("CARDLAB_LOAD_HEADERS", "{}"))
LATENCIES = os.environ.get("CARDLAB_LOAD_LATENCIES", "")
_times: list[float] = []
_span: list[float] = []     # the first request's start, the last one's end (time.time())


class Visitor(FastHttpUser):
    wait_time = constant(0)

    @task
    def visit(self) -> None:
        self.client.request(METHOD, PATH, data=BODY, headers=HEADERS, name=PATH)


@events.request.add_listener
def _keep_time(response_time: float, exception: BaseException | None, **_details) -> None:
    end = time.time()
    start = end - response_time / 1000
    if not _span:
        _span.extend((start, end))
    _span[0], _span[1] = min(_span[0], start), max(_span[1], end)
    if exception is None:
        _times.append(response_time)


@events.quitting.add_listener
def _write_times(**_details) -> None:
    if LATENCIES:
        with open(LATENCIES, "w") as out:
            out.write("\n".join(f"{t:.3f}" for t in _times))
        with open(LATENCIES + ".span", "w") as out:
            out.write(f"{_span[1] - _span[0]:.6f}" if _span else "0")
