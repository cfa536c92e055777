"""Simulation pages, mounted at /simulations/."""

from django.urls import path

from simulations import views

app_name = "simulations"

urlpatterns = [
    path("", views.run_list, name="list"),
    path("new/", views.run_new, name="new"),
    path("<str:uid>/", views.run_detail, name="detail"),
    path("<str:uid>/progress/", views.run_progress_fragment, name="progress"),
    path("<str:uid>/cancel/", views.run_cancel, name="cancel"),
    path("<str:uid>/what-if/", views.run_what_if, name="what-if"),
    path("<str:uid>/replays/<int:number>/", views.replay_view, name="replay"),
]
