"""Balance search pages, mounted at /balance/."""

from django.urls import path

from balance import views

app_name = "balance"

urlpatterns = [
    path("", views.job_list, name="list"),
    path("new/", views.job_new, name="new"),
    path("<str:uid>/", views.job_detail, name="detail"),
    path("<str:uid>/progress/", views.job_progress_fragment, name="progress"),
    path("<str:uid>/cancel/", views.job_cancel, name="cancel"),
    path("<str:uid>/candidates/<int:index>/run/", views.candidate_run, name="candidate-run"),
    path("<str:uid>/candidates/<int:index>/patch.json", views.patch_download, name="patch"),
]
