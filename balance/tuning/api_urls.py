"""The deck tuning API, mounted at /api/deck-tunings/."""

from django.urls import path

from balance.tuning import apis
from common import converters  # noqa: F401  (registers <dbint:…>, numbers a database can hold)

app_name = "tuning-api"

urlpatterns = [
    path("", apis.TuningListCreateApi.as_view(), name="list"),
    path("<str:uid>/", apis.TuningDetailApi.as_view(), name="detail"),
    path("<str:uid>/cancel/", apis.TuningCancelApi.as_view(), name="cancel"),
    path("<str:uid>/suggestions/<dbint:index>/save/", apis.SuggestionSaveApi.as_view(),
         name="suggestion-save"),
]
