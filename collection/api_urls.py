"""The collection API, mounted at /api/collection/."""

from django.urls import path

from collection import apis

app_name = "collection-api"

urlpatterns = [
    path("", apis.CollectionListApi.as_view(), name="list"),
    path("import/", apis.CollectionImportApi.as_view(), name="import"),
    path("export/", apis.CollectionExportApi.as_view(), name="export"),
    path("claims/", apis.CollectionClaimsApi.as_view(), name="claims"),
    path("cards/<str:code>/", apis.CollectionCardApi.as_view(), name="card"),
    path("sets/<str:code>/", apis.CollectionSetAddApi.as_view(), name="set-add"),
    path("decks/<str:uid>/missing/", apis.DeckMissingApi.as_view(), name="deck-missing"),
]
