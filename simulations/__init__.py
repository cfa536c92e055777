"""Simulations: AI-vs-AI matches between frozen deck lists, played in chunks on Celery workers.

The database is the source of truth for what is done: a run's chunks are rows with a lease, a
chunk's result is one row under a unique constraint (so a chunk delivered twice counts once),
the last chunk to finish finalises the run, and a reaper re-sends chunks whose worker vanished.
Imports flow config → simulations → decks → cards → rules.

The runs' core sits at the top of the app (``models``, ``services``, ``selectors``,
``execution``, ``sources``, ``results``, ``reports``, ``comparison``, ``apis``, ``views``,
``forms``, ``tasks`` …). Each feature built on runs is a sub-package, as in ``balance``:
``patches/`` (the patch page: ``text``, ``forms``, ``views``), ``sweeps/`` (a family of runs
over one card field: ``services``, ``apis``, ``charts``), ``meta/`` (a round-robin's meta:
``field``, ``charts``, ``view``), ``replays/`` (a kept game step by step: ``board``, ``text``),
``agents/`` (the AI players' strength, cost and level of play: ``strength``, ``skill``,
``calibration``, ``apis``) and ``cli/`` (the ``simulate`` command: ``simulate``, ``input``,
``round_robin``).
"""
