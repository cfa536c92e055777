"""Simulation pages, mounted at /simulations/."""

from django.urls import path

from common import converters  # noqa: F401  (registers <dbint:…>, numbers a database can hold)
from simulations import views
from simulations.patches import views as patch_views

app_name = "simulations"

urlpatterns = [
    path("", views.run_list, name="list"),
    path("new/", views.run_new, name="new"),
    path("compare/", views.run_compare, name="compare"),
    path("agents/", views.agent_strength_page, name="agents"),
    path("patch/", patch_views.patch_page, name="patch"),
    path("patch/preview/", patch_views.patch_preview, name="patch-preview"),
    path("sweeps/<str:uid>/", patch_views.sweep_detail, name="sweep"),
    path("<str:uid>/", views.run_detail, name="detail"),
    path("<str:uid>/progress/", views.run_progress_fragment, name="progress"),
    path("<str:uid>/cancel/", views.run_cancel, name="cancel"),
    path("<str:uid>/matchups/<dbint:index>/", views.run_matchup, name="matchup"),
    path("<str:uid>/what-if/", views.run_what_if, name="what-if"),
    path("<str:uid>/what-if/form/", views.run_what_if_form, name="what-if-form"),
    path("<str:uid>/replays/<dbint:number>/", views.replay_view, name="replay"),
]
