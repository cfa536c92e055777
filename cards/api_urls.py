"""The card API, mounted at /api/cards/."""

from django.urls import path

from cards import apis

app_name = "cards-api"

urlpatterns = [
    path("", apis.CardListApi.as_view(), name="list"),
    path("<str:code>/", apis.CardDetailApi.as_view(), name="detail"),
]
