"""Collection pages, mounted at /collection/."""

from django.urls import path

from collection import deck_views, views

app_name = "collection"

urlpatterns = [
    path("", views.collection_page, name="page"),
    path("import/", views.collection_import_view, name="import"),
    path("export/<str:format_name>/", views.collection_export_view, name="export"),
    path("sets/", views.collection_sets, name="sets"),
    path("sets/add/", views.collection_set_add_view, name="set-add"),
    path("cards/<str:code>/", views.collection_card_view, name="card"),
    path("decks/<str:uid>/missing/", deck_views.deck_missing_view, name="deck-missing"),
    path("decks/<str:uid>/shopping-list/<str:format_name>/", deck_views.shopping_list_view,
         name="shopping-list"),
]
