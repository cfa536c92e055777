"""System checks on how the site is set up, shown by ``runserver``, ``migrate`` and ``check``.

With DEBUG off the pages name their static files by the hashed names in the manifest that
``collectstatic`` writes (``STATIC_ROOT/staticfiles.json``). Without it every page fails with
"Missing staticfiles manifest entry"; ``./run.sh`` collects, a plain ``runserver`` with
``DJANGO_DEBUG=0`` does not, so the check says what to run (and the 500 page says it too:
``config.views.server_error``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.apps import AppConfig
from django.conf import settings
from django.contrib.staticfiles.storage import ManifestFilesMixin, staticfiles_storage
from django.core import checks
from django.utils.translation import gettext_lazy

STATIC_NOT_COLLECTED = gettext_lazy(
    "DEBUG is off and the static files are not collected: there is no {manifest}, so every "
    "page fails.")
RUN_COLLECTSTATIC = gettext_lazy(
    "Run `python manage.py collectstatic` (./run.sh does), or turn DEBUG on for development "
    "(DJANGO_DEBUG=1).")


def static_manifest_missing() -> str | None:
    """The manifest's path when pages need one and it is not there, else None."""
    # The stubs type the lazy storage as a plain Storage, which no manifest mixin can extend.
    found: object = staticfiles_storage
    if settings.DEBUG or not isinstance(found, ManifestFilesMixin):
        return None
    storage = found.manifest_storage      # set by the mixin's __init__: never None here
    if storage is None or storage.exists(found.manifest_name):
        return None
    return storage.path(found.manifest_name)


@checks.register()
def static_files_collected(app_configs: Sequence[AppConfig] | None = None,
                           **kwargs: Any) -> list[checks.CheckMessage]:
    missing = static_manifest_missing()
    if missing is None:
        return []
    # A warning, not an error: migrate runs the checks too, and must work before collectstatic.
    return [checks.Warning(str(STATIC_NOT_COLLECTED).format(manifest=missing),
                           hint=str(RUN_COLLECTSTATIC), id="cardlab.W001")]


PSEUDO_CATALOGUE_MISSING = gettext_lazy(
    "The pseudo-locale is on but its catalogue {catalogue} is missing: its pages show the "
    "English texts.")
RUN_PSEUDO = gettext_lazy(
    "Run `python -m config.translations pseudo` (with CARDLAB_PSEUDO_LOCALE=1), or turn the "
    "pseudo-locale off.")


@checks.register()
def pseudo_catalogue_generated(app_configs: Sequence[AppConfig] | None = None,
                               **kwargs: Any) -> list[checks.CheckMessage]:
    """The pseudo-locale's catalogues are generated, not committed: say so when they are not."""
    if not settings.PSEUDO_LOCALE:
        return []
    from config.pseudo_locale import pseudo_catalogue_file

    catalogue = pseudo_catalogue_file(settings.VAR_DIR)
    if catalogue.exists():
        return []
    return [checks.Warning(str(PSEUDO_CATALOGUE_MISSING).format(catalogue=catalogue),
                           hint=str(RUN_PSEUDO), id="cardlab.W002")]
