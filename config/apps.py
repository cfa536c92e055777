from django.apps import AppConfig
from django.conf import settings


class SiteConfig(AppConfig):
    """The site as an app of its own: what belongs to no floor below it (the shared cache's
    table, created by a migration; the system check on collected static files; the
    development pseudo-locale, when the settings turn it on)."""

    name = "config"
    verbose_name = "Cardlab"

    def ready(self) -> None:
        from config import checks  # noqa: F401  (registers the checks)

        if settings.PSEUDO_LOCALE:
            from config.pseudo_locale import pseudo_locale_install

            pseudo_locale_install()
