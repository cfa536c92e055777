"""The deck API, mounted at /api/decks/."""

from django.urls import path

from common import converters  # noqa: F401  (registers <dbint:…>, numbers a database can hold)
from decks import apis
from decks.sharing import apis as sharing_apis
from decks.validation import apis as apis_tools

app_name = "decks-api"

urlpatterns = [
    path("", apis.DeckListCreateApi.as_view(), name="list"),
    path("validate/", apis_tools.DeckValidateApi.as_view(), name="validate"),
    path("import/", apis_tools.DeckImportApi.as_view(), name="import"),
    path("compare/", apis_tools.DeckCompareApi.as_view(), name="compare"),
    path("formats/", apis_tools.FormatListApi.as_view(), name="formats"),
    path("most-favoured/", sharing_apis.MostFavouredApi.as_view(), name="most-favoured"),
    path("<str:uid>/", apis.DeckDetailApi.as_view(), name="detail"),
    path("<str:uid>/export/", apis_tools.DeckExportApi.as_view(), name="export"),
    path("<str:uid>/fork/", apis.DeckForkApi.as_view(), name="fork"),
    path("<str:uid>/tags/", sharing_apis.DeckTagsApi.as_view(), name="tags"),
    path("<str:uid>/active/", sharing_apis.DeckActiveApi.as_view(), name="active"),
    path("<str:uid>/favourite/", sharing_apis.DeckFavouriteApi.as_view(), name="favourite"),
    path("<str:uid>/versions/", apis.DeckVersionListApi.as_view(), name="versions"),
    path("<str:uid>/versions/<dbint:number>/", apis.DeckVersionDetailApi.as_view(),
         name="version"),
    path("<str:uid>/versions/<dbint:number>/restore/", apis.DeckVersionRestoreApi.as_view(),
         name="restore"),
]
