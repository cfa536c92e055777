"""The site's URLs: pages, the API and its documentation, and the admin."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularSwaggerView

from accounts.auth import ThrottledAdminAuthenticationForm, throttled_admin_login
from config import profile, views
from config.schema_view import StoredSchemaView
from play.friends import views as play_views_friends

# The admin's log-in says why a throttled log-in is refused (the backend refuses it anyway).
admin.site.login_form = ThrottledAdminAuthenticationForm
admin.site.login = throttled_admin_login(admin.site.login)   # type: ignore[method-assign]

urlpatterns = [
    path("", views.home, name="home"),
    path("rules/", views.rules, name="rulebook"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("health/", views.health, name="health"),
    path("cards/", include("cards.urls")),
    path("decks/", include("decks.urls")),
    path("collection/", include("collection.urls")),
    path("accounts/profile/", profile.profile, name="profile"),
    path("accounts/", include("accounts.urls")),
    path("simulations/", include("simulations.urls")),
    path("balance/", include("balance.urls")),
    path("play/", include("play.urls")),
    path("players/<str:name>/", play_views_friends.player_page, name="player"),
    path("api/cards/", include("cards.api_urls")),
    path("api/decks/", include("decks.api_urls")),
    path("api/collection/", include("collection.api_urls")),
    path("api/simulations/", include("simulations.api_urls")),
    path("api/play/", include("play.api_urls")),
    path("api/balance-searches/", include("balance.search.api_urls")),
    path("api/deck-tunings/", include("balance.tuning.api_urls")),
    path("api/meta-forecasts/", include("balance.forecast.api_urls")),
    path("api/schema/", StoredSchemaView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="swagger-ui"),
    path("admin/", admin.site.urls),
    # The header's language switcher posts to set_language (Django's view), which remembers the
    # choice in a cookie and returns to the page it was made on.
    path("i18n/", include("django.conf.urls.i18n")),
]

handler400 = "config.views.bad_request"
handler403 = "config.views.permission_denied"
handler404 = "config.views.page_not_found"
handler500 = "config.views.server_error"
