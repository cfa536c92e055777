"""The play pages, mounted at /play/."""

from django.urls import path

from play import views, views_controls
from play.friends import views as views_friends
from play.replays import views as views_replays
from play.spectators import views as views_spectators

app_name = "play"

urlpatterns = [
    path("", views.play_new, name="new"),
    path("challenge/", views_friends.challenge_new, name="challenge-new"),
    path("challenges/", views_friends.challenge_lists, name="challenge-lists"),
    path("challenges/<str:uid>/", views_friends.challenge_page, name="challenge"),
    path("challenges/<str:uid>/accept/", views_friends.challenge_accept,
         name="challenge-accept"),
    path("challenges/<str:uid>/decline/", views_friends.challenge_decline,
         name="challenge-decline"),
    path("<str:uid>/", views.play_game, name="game"),
    path("<str:uid>/board/", views.play_board, name="board"),
    path("<str:uid>/act/", views.play_act, name="act"),
    path("<str:uid>/undo/", views_controls.play_undo, name="undo"),
    path("<str:uid>/restart/", views_controls.play_restart, name="restart"),
    path("<str:uid>/concede/", views_controls.play_concede, name="concede"),
    path("<str:uid>/hint/", views_controls.play_hint, name="hint"),
    path("<str:uid>/retry/", views_controls.play_retry, name="retry"),
    path("<str:uid>/share/", views_controls.play_share, name="share"),
    path("<str:uid>/replay/", views_replays.play_replay, name="replay"),
    path("<str:uid>/play-on/", views_replays.play_on, name="play-on"),
    path("<str:uid>/rematch/", views_friends.rematch, name="rematch"),
    path("<str:uid>/end/", views_friends.game_end, name="game-end"),
    path("<str:uid>/watch/", views_spectators.watch_page, name="watch"),
    path("<str:uid>/watch/board/", views_spectators.watch_board, name="watch-board"),
    path("<str:uid>/spectators/", views_spectators.spectators_change, name="spectators"),
]
