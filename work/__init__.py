"""Leased work: the one protocol every kind of long work on the Celery workers follows —
simulation chunks, balance jobs and their pieces. The lease columns (``models.LeasedWork``),
claim, renewal and give-up (``protocol``), fair dispatch (``fair``), the reaper (``reaper``), the
per-user CPU cap (``quota``) and their settings (``conf``). The apps above register their kinds
of work; this one imports none of them."""
