"""The visitor ``manage.py loadtest --tool locust`` runs in locust: one address, as fast as the
server answers (no think time). The address comes from the environment the command sets."""

import json
import os

from locust import FastHttpUser, constant, task

METHOD = os.environ.get("CARDLAB_LOAD_METHOD", "GET")
PATH = os.environ.get("CARDLAB_LOAD_PATH", "/health/")
BODY = os.environ.get("CARDLAB_LOAD_BODY", "").encode() or None
HEADERS = json.loads(os.environ.get("CARDLAB_LOAD_HEADERS", "{}"))


class Visitor(FastHttpUser):
    wait_time = constant(0)

    @task
    def visit(self) -> None:
        self.client.request(METHOD, PATH, data=BODY, headers=HEADERS, name=PATH)
