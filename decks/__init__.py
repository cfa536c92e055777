"""Decks: players' decks and their versions, formats and ban lists, import/export codecs,
the builder pages, the deck API, accounts.

Floor plan: ``decks`` may import ``cards`` and ``rules``, never ``simulations`` or ``config``.
"""
