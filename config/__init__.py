"""Project configuration: settings, URLs, WSGI/ASGI entry points and the Celery app.

The Celery app is imported here so that ``shared_task`` binds to it whenever Django starts.
"""

from config.celery import app as celery_app

__all__ = ["celery_app"]
