"""Simulations: AI-vs-AI matches between frozen deck lists, played in chunks on Celery workers.

The database is the source of truth for what is done: a run's chunks are rows with a lease, a
chunk's result is one row under a unique constraint (so a chunk delivered twice counts once),
the last chunk to finish finalises the run, and a reaper re-sends chunks whose worker vanished.
Imports flow config → simulations → decks → cards → rules.
"""
