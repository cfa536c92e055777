"""Balance searches and deck tunings: jobs on the Celery workers whose games fan out to every
worker process.

Both kinds take one job path: ``services`` (submit, cap, cancel), ``runner`` (claim, resume,
run the search), ``pieces`` (its games as pieces any worker plays), ``selectors``, ``apis``,
``views``, ``forms`` and ``cli`` hold what every job does; ``kinds`` holds the few parts that
differ. Each kind is a sub-package of the same shape — ``search/`` (the fewest card changes that
make a field fair) and ``tuning/`` (legal swaps that raise a deck's win rate): its ``problem``
(the frozen row to the pure search of ``rules.lab``), ``services``, ``apis``, ``views``,
``forms``, ``cli``, ``report`` and ``api_urls``.
"""
