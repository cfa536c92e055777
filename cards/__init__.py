"""The catalogue: cards, their admin, pages, API and per-card simulated stats.

Floor plan: ``cards`` may import ``rules``, never ``decks`` or ``config``.
"""
