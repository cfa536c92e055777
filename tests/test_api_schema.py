"""The OpenAPI schema tells the truth about errors and nullable values (schemathesis checks it
against a live server in tests/test_api_contract.py; these are the quick, exact checks)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db

OPERATIONS = ("get", "post", "put", "patch", "delete")


@pytest.fixture(scope="module")
def schema(django_db_blocker):
    from django.test import Client

    with django_db_blocker.unblock():
        return Client().get("/api/schema/", {"format": "json"}).json()


def _operations(schema):
    for path, item in schema["paths"].items():
        for method in OPERATIONS:
            if method in item:
                yield path, method, item[method]


def test_every_operation_documents_its_errors_with_a_body(schema):
    for path, method, operation in _operations(schema):
        responses = operation["responses"]
        for status in ("400", "401", "403", "429"):
            assert status in responses, (method, path, status)
            body = responses[status]["content"]["application/json"]["schema"]
            expected = "ValidationError" if status == "400" else "Error"
            # The shared error bodies, unless the view documents its own for that status.
            assert body.get("$ref", "/" + expected).endswith("/" + expected) or (
                "$ref" not in body), (method, path, status)
        if "{" in path:
            assert "404" in responses, (method, path)
        if method in ("post", "put", "patch"):
            assert {"413", "415"} <= set(responses), (method, path)


def test_a_compare_of_decks_you_cannot_see_is_a_documented_404(schema):
    assert "404" in schema["paths"]["/api/decks/compare/"]["get"]["responses"]


def test_matrix_cells_are_nullable(schema):
    matrix = schema["components"]["schemas"]["Results"]["properties"]["matrix"]
    assert matrix["items"]["items"]["nullable"] is True


def test_request_bodies_refuse_blank_required_text(schema):
    text = schema["components"]["schemas"]["DeckImportInputRequest"]["properties"]["text"]
    assert text["minLength"] == 1
    compare = schema["paths"]["/api/decks/compare/"]["get"]["parameters"]
    assert all(p["schema"].get("minLength") == 1 for p in compare if p["name"] in "ab")
