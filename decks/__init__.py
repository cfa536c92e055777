"""Decks and simulations: players' decks, formats, import/export, builder pages, the deck API,
and simulation runs (models, Celery tasks, results pages, API).

Floor plan: ``decks`` may import ``cards`` and ``rules``, never ``config``.
"""
