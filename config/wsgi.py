"""WSGI entry point (``gunicorn config.wsgi``)."""

import os

from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_wsgi_application()
# Django imports the URLconf, and with it every view module, DRF and the schema generator, on a
# process's first request: seconds on a busy machine, paid by whichever visitor comes first to
# each new worker. Importing it here pays it when the process starts instead.
get_resolver().resolve("/health/")
