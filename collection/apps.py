from django.apps import AppConfig
from django.utils.translation import gettext_lazy


class CollectionConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "collection"
    verbose_name = gettext_lazy("Collections")

    def ready(self) -> None:
        # The catalogue and the builder ask cards.ownership; this app answers for them.
        from cards.ownership import ownership_register
        from collection.selectors import CollectionOwnership

        ownership_register(CollectionOwnership())
