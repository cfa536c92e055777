"""The play API, mounted at /api/play/."""

from django.urls import path

from play import apis
from play.friends import apis as apis_friends
from play.replays import apis as apis_replays
from play.spectators import apis as apis_spectators
from play.spectators import events as spectator_stream
from play.streams import events as stream

app_name = "play-api"

urlpatterns = [
    path("", apis.PlayListCreateApi.as_view(), name="list"),
    path("challenges/", apis_friends.ChallengeListCreateApi.as_view(), name="challenges"),
    path("challenges/<str:uid>/", apis_friends.ChallengeDetailApi.as_view(), name="challenge"),
    path("challenges/<str:uid>/accept/", apis_friends.ChallengeAcceptApi.as_view(),
         name="challenge-accept"),
    path("challenges/<str:uid>/decline/", apis_friends.ChallengeDeclineApi.as_view(),
         name="challenge-decline"),
    path("watchable/", apis_spectators.WatchableListApi.as_view(), name="watchable"),
    path("<str:uid>/", apis.PlayDetailApi.as_view(), name="detail"),
    path("<str:uid>/watch/", apis_spectators.SpectatorStateApi.as_view(), name="watch"),
    path("<str:uid>/watch/events/", spectator_stream.spectator_events, name="watch-events"),
    path("<str:uid>/spectators/", apis_spectators.SpectatorsAllowApi.as_view(),
         name="spectators"),
    path("<str:uid>/events/", stream.play_events, name="events"),
    path("<str:uid>/actions/", apis.PlayActApi.as_view(), name="act"),
    path("<str:uid>/undo/", apis.PlayUndoApi.as_view(), name="undo"),
    path("<str:uid>/restart/", apis.PlayRestartApi.as_view(), name="restart"),
    path("<str:uid>/concede/", apis.PlayConcedeApi.as_view(), name="concede"),
    path("<str:uid>/share/", apis.PlayShareApi.as_view(), name="share"),
    path("<str:uid>/hint/", apis.PlayHintApi.as_view(), name="hint"),
    path("<str:uid>/retry/", apis.PlayRetryApi.as_view(), name="retry"),
    path("<str:uid>/rematch/", apis_friends.PlayRematchApi.as_view(), name="rematch"),
    path("<str:uid>/play-on/", apis_replays.PlayOnApi.as_view(), name="play-on"),
]
