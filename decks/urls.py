"""Deck pages, mounted at /decks/."""

from django.urls import path

from common import converters  # noqa: F401  (registers <dbint:…>, numbers a database can hold)
from decks import views
from decks.builder import paste as builder_paste
from decks.builder import views as builder
from decks.sharing import views as sharing_views
from decks.starters import views as starter_views
from decks.transfer import views as import_views

app_name = "decks"

urlpatterns = [
    path("", views.deck_list, name="list"),
    path("build/", builder.builder, name="build"),
    path("import/", import_views.deck_import, name="import"),
    path("compare/", views.deck_compare_view, name="compare"),
    path("starter/<slug:slug>/", starter_views.starter_detail, name="starter"),
    path("starter/<slug:slug>/copy/", starter_views.starter_copy, name="starter-copy"),
    path("starter/<slug:slug>/download/<str:format_name>/", starter_views.starter_download,
         name="starter-download"),
    # The builder's actions, for the new-deck draft ("new") or a saved deck's draft (uid).
    path("build/<str:key>/cards/", builder.builder_cards, name="build-cards"),
    path("build/<str:key>/card/", builder.builder_card, name="build-card"),
    path("build/<str:key>/hero/", builder.builder_hero, name="build-hero"),
    path("build/<str:key>/meta/", builder.builder_meta, name="build-meta"),
    path("build/<str:key>/clear/", builder.builder_clear, name="build-clear"),
    path("build/<str:key>/code/", builder_paste.builder_paste_code, name="build-code"),
    path("build/<str:key>/discard/", builder.builder_discard, name="build-discard"),
    path("build/<str:key>/save/", builder.builder_save, name="build-save"),
    path("build/<str:key>/hand/", builder.builder_hand, name="build-hand"),
    path("build/<str:key>/download/<str:format_name>/", builder.builder_download,
         name="build-download"),
    path("<str:uid>/", views.deck_detail, name="detail"),
    path("<str:key>/edit/", builder.builder, name="edit"),
    path("<str:uid>/history/", views.deck_versions, name="versions"),
    path("<str:uid>/history/<dbint:number>/restore/", views.version_restore, name="restore"),
    path("<str:uid>/fork/", views.deck_fork_view, name="fork"),
    path("<str:uid>/copy/", views.deck_copy_to_builder, name="copy"),
    path("<str:uid>/delete/", views.deck_delete_view, name="delete"),
    path("<str:uid>/download/<str:format_name>/", views.deck_download, name="download"),
    path("<str:uid>/print/", views.deck_print, name="print"),
    path("<str:uid>/players/", sharing_views.deck_players, name="players"),
    path("<str:uid>/favourite/", sharing_views.deck_favourite_view, name="favourite"),
    path("<str:uid>/active/", sharing_views.deck_active_view, name="active"),
    path("<str:uid>/tags/", sharing_views.deck_tags_view, name="tags"),
    path("<str:uid>/image.png", sharing_views.deck_image, name="image"),
]
