"""The site's URLs: pages, the API and its documentation, and the admin."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from config import views

urlpatterns = [
    path("", views.home, name="home"),
    path("cards/", include("cards.urls")),
    path("decks/", include("decks.urls")),
    path("accounts/", include("decks.account_urls")),
    path("simulations/", include("simulations.urls")),
    path("api/cards/", include("cards.api_urls")),
    path("api/decks/", include("decks.api_urls")),
    path("api/simulations/", include("simulations.api_urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="swagger-ui"),
    path("admin/", admin.site.urls),
]
