"""The game itself, as a pure Python library.

Invariant: nothing in this package imports Django, Django REST framework, Celery, or the
project's Django apps (``cards``, ``decks``, ``simulations``, ``config``). The website and the
workers use the game; the game knows nothing of them, so it can be played, tested and
benchmarked on its own.

Importing the package first decides how the engine is loaded — its compiled build, or its
sources while that build is stale (``rules.loader``).
"""

from rules.loader import select_engine

select_engine()
