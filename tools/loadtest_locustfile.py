"""The visitor ``manage.py loadtest --tool locust`` runs in locust: one address, as fast as the
server answers (no think time), with one body or a body of its own for each request. The address
comes from the environment the command sets, and when locust quits this visitor writes what it
saw as JSON to ``CARDLAB_LOAD_RESULT``: each successful request's time (ms), so the command can
pool several runs' percentiles; the failed requests; and the seconds from the first request's
start to the last one's end, which the command divides the requests by (locust's own requests
per second counts whole seconds: a run of a few seconds would read several times too fast).
Every request is counted here, those that finish within the stop timeout after the run's time is
up too (locust's CSV file can miss them)."""

import itertools
import json
import os
import time
from typing import Any

from locust import FastHttpUser, constant, events, task

METHOD = os.environ.get("CARDLAB_LOAD_METHOD", "GET")
PATH = os.environ.get("CARDLAB_LOAD_PATH", "/health/")
BODY = os.environ.get("CARDLAB_LOAD_BODY", "").encode() or None
# A body of its own for each request, in turn (the command's fresh deck lists), one a line.
BODIES_FILE = os.environ.get("CARDLAB_LOAD_BODIES", "")
BODIES = open(BODIES_FILE, "rb").read().split(b"\n") if BODIES_FILE else []
_turn = itertools.count()
HEADERS: dict[str, str] = json.loads(os.environ.get("CARDLAB_LOAD_HEADERS", "{}"))
RESULT = os.environ.get("CARDLAB_LOAD_RESULT", "")
_times: list[float] = []
_failures: list[str] = []
_span: list[float] = []     # the first request's start, the last one's end (time.time())


class Visitor(FastHttpUser):
    wait_time = constant(0)

    @task
    def visit(self) -> None:
        body = BODIES[next(_turn) % len(BODIES)] if BODIES else BODY
        # locust annotates ``data`` as str or dict, yet sends bytes as they are (its docstring:
        # "String/bytes"): the bodies stay bytes, as read.
        self.client.request(METHOD, PATH, data=body,  # type: ignore[arg-type]
                            headers=HEADERS, name=PATH)


# locust's EventHook.add_listener is unannotated (locust ships py.typed, but not this method's
# types): as a decorator it would leave the listener untyped.
@events.request.add_listener  # type: ignore[untyped-decorator]
def _keep_time(response_time: float, exception: BaseException | None, **_details: Any) -> None:
    end = time.time()
    start = end - response_time / 1000
    if not _span:
        _span.extend((start, end))
    _span[0], _span[1] = min(_span[0], start), max(_span[1], end)
    if exception is None:
        _times.append(response_time)
    else:
        _failures.append(str(exception))


@events.quitting.add_listener  # type: ignore[untyped-decorator]  # unannotated, as above
def _write_result(**_details: Any) -> None:
    if RESULT:
        with open(RESULT, "w") as out:
            json.dump({"latencies_ms": _times, "failures": len(_failures),
                       "first_failure": _failures[0] if _failures else "",
                       "span_s": _span[1] - _span[0] if _span else 0.0}, out)
