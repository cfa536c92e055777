from django.apps import AppConfig


class ToolsConfig(AppConfig):
    """The project's benchmarks and stress tools (``manage.py bench_*``, ``loadtest``,
    ``play_bench``; ``python -m tools.broker_stress``): they measure the site, they are not
    part of it, so nothing in the site imports them."""

    name = "tools"
    verbose_name = "Tools"
