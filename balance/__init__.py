"""Balance search jobs on the Celery workers: the fewest card changes that make a field fair."""
