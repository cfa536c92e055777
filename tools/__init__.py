"""Tools that measure the site and are not part of it: the benchmark commands (``manage.py
bench_catalogue``, ``bench_deck_validation``, ``loadtest``, ``bench_simulations``,
``bench_fairness``, ``bench_estimates``, ``bench_balance``, ``play_bench``), the sandbox that
starts real Celery workers for them and for the fault tests (``tools.sandbox``), the broker's
stress race (``python -m tools.broker_stress``) and the locust file of the load test. The top
floor: it may import any app; no app imports it."""
