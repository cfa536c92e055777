"""The balance search API, mounted at /api/balance-searches/."""

from django.urls import path

from balance.search import apis
from common import converters  # noqa: F401  (registers <dbint:…>, numbers a database can hold)

app_name = "balance-api"

urlpatterns = [
    path("", apis.SearchListCreateApi.as_view(), name="list"),
    path("<str:uid>/", apis.SearchDetailApi.as_view(), name="detail"),
    path("<str:uid>/cancel/", apis.SearchCancelApi.as_view(), name="cancel"),
    path("<str:uid>/candidates/<dbint:index>/run/", apis.CandidateRunApi.as_view(),
         name="candidate-run"),
]
