"""Balance search, deck tuning and meta forecast pages, mounted at /balance/ (tunings under
/balance/tune/, forecasts under /balance/forecast/)."""

from django.urls import path

from balance.forecast import views as forecast_views
from balance.search import views
from balance.tuning import views as tuning_views
from common import converters  # noqa: F401  (registers <dbint:…>, numbers a database can hold)

app_name = "balance"

urlpatterns = [
    path("", views.job_list, name="list"),
    path("new/", views.job_new, name="new"),
    path("tune/", tuning_views.tune_list, name="tune-list"),
    path("tune/new/", tuning_views.tune_new, name="tune-new"),
    path("tune/<str:uid>/", tuning_views.tune_detail, name="tune-detail"),
    path("tune/<str:uid>/progress/", tuning_views.tune_progress, name="tune-progress"),
    path("tune/<str:uid>/cancel/", tuning_views.tune_cancel, name="tune-cancel"),
    path("tune/<str:uid>/suggestions/<dbint:index>/save/", tuning_views.tune_save,
         name="tune-save"),
    path("forecast/", forecast_views.forecast_list, name="forecast-list"),
    path("forecast/new/", forecast_views.forecast_new, name="forecast-new"),
    path("forecast/<str:uid>/", forecast_views.forecast_detail, name="forecast-detail"),
    path("forecast/<str:uid>/progress/", forecast_views.forecast_progress,
         name="forecast-progress"),
    path("forecast/<str:uid>/cancel/", forecast_views.forecast_cancel, name="forecast-cancel"),
    path("<str:uid>/", views.job_detail, name="detail"),
    path("<str:uid>/progress/", views.job_progress_fragment, name="progress"),
    path("<str:uid>/cancel/", views.job_cancel, name="cancel"),
    path("<str:uid>/candidates/<dbint:index>/run/", views.candidate_run, name="candidate-run"),
    path("<str:uid>/candidates/<dbint:index>/patch.json", views.patch_download, name="patch"),
]
