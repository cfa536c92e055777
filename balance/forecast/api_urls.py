"""The meta forecast API, mounted at /api/meta-forecasts/."""

from django.urls import path

from balance.forecast import apis

app_name = "forecast-api"

urlpatterns = [
    path("", apis.ForecastListCreateApi.as_view(), name="list"),
    path("<str:uid>/", apis.ForecastDetailApi.as_view(), name="detail"),
    path("<str:uid>/cancel/", apis.ForecastCancelApi.as_view(), name="cancel"),
]
