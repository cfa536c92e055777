"""The game itself, as a pure Python library.

Invariant: nothing in this package imports Django, Django REST framework, Celery, or the
project's Django apps (``cards``, ``decks``, ``config``). The website and the workers use the
game; the game knows nothing of them, so it can be played, tested and benchmarked on its own.
"""
