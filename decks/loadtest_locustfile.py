"""The visitor ``manage.py loadtest --tool locust`` runs in locust: one address, as fast as the
server answers (no think time). The address comes from the environment the command sets, and
each successful request's time (ms) is written, one a line, to ``CARDLAB_LOAD_LATENCIES`` when
locust stops, so the command can pool several runs' percentiles."""

import json
import os

from locust import FastHttpUser, constant, events, task

METHOD = os.environ.get("CARDLAB_LOAD_METHOD", "GET")
PATH = os.environ.get("CARDLAB_LOAD_PATH", "/health/")
BODY = os.environ.get("CARDLAB_LOAD_BODY", "").encode() or None
HEADERS = json.loads(os.environ.get("CARDLAB_LOAD_HEADERS", "{}"))
LATENCIES = os.environ.get("CARDLAB_LOAD_LATENCIES", "")
_times: list[float] = []


class Visitor(FastHttpUser):
    wait_time = constant(0)

    @task
    def visit(self) -> None:
        self.client.request(METHOD, PATH, data=BODY, headers=HEADERS, name=PATH)


@events.request.add_listener
def _keep_time(response_time: float, exception: BaseException | None, **_details) -> None:
    if exception is None:
        _times.append(response_time)


@events.quitting.add_listener
def _write_times(**_details) -> None:
    if LATENCIES:
        with open(LATENCIES, "w") as out:
            out.write("\n".join(f"{t:.3f}" for t in _times))
