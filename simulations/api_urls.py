"""The simulation API, mounted at /api/simulations/."""

from django.urls import path

from common import converters  # noqa: F401  (registers <dbint:…>, numbers a database can hold)
from simulations import apis
from simulations.agents import apis as agent_apis
from simulations.sweeps import apis as sweep_apis

app_name = "simulations-api"

urlpatterns = [
    path("", apis.SimulationListCreateApi.as_view(), name="list"),
    path("compare/", apis.SimulationCompareApi.as_view(), name="compare"),
    path("agents/", agent_apis.AgentStrengthApi.as_view(), name="agents"),
    path("sweeps/", sweep_apis.SweepCreateApi.as_view(), name="sweeps"),
    path("sweeps/<str:uid>/", sweep_apis.SweepDetailApi.as_view(), name="sweep"),
    path("<str:uid>/", apis.SimulationDetailApi.as_view(), name="detail"),
    path("<str:uid>/results/", apis.SimulationResultsApi.as_view(), name="results"),
    path("<str:uid>/cancel/", apis.SimulationCancelApi.as_view(), name="cancel"),
    path("<str:uid>/what-if/", apis.SimulationWhatIfApi.as_view(), name="what-if"),
    path("<str:uid>/replays/", apis.SimulationReplayListApi.as_view(), name="replays"),
    path("<str:uid>/replays/<dbint:number>/", apis.SimulationReplayDetailApi.as_view(),
         name="replay"),
]
