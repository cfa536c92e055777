from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DecksConfig(AppConfig):
    name = "decks"
    verbose_name = _("Decks")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.db.models.signals import m2m_changed, post_delete, post_save

        from cards.generation import catalogue_changed
        from decks.models import Format, FormatCardLimit

        # A format's rules show on catalogue and deck pages (config/page_cache.py).
        for model in (Format, FormatCardLimit):
            post_save.connect(catalogue_changed, sender=model, dispatch_uid=f"gen-save-{model}")
            post_delete.connect(catalogue_changed, sender=model, dispatch_uid=f"gen-del-{model}")
        # ...and so do its legal sets (validation keeps the rules per generation too).
        m2m_changed.connect(catalogue_changed, sender=Format.legal_sets.through,
                            dispatch_uid="gen-m2m-format-legal-sets")
