"""The play app's settings, read when used (tests override them)."""

from __future__ import annotations

from django.conf import settings


def ai_threads() -> int:
    """Threads of this process that work out agents' moves (``PLAY_AI_THREADS``, default 2)."""
    return int(getattr(settings, "PLAY_AI_THREADS", 2))


def ai_inline() -> bool:
    """Work out agents' moves inside the request (``PLAY_AI_INLINE``: unit tests only)."""
    return bool(getattr(settings, "PLAY_AI_INLINE", False))


def ai_step_seconds() -> float:
    """The pause between two of an agent's moves as the page shows them (``PLAY_STEP_SECONDS``)."""
    return float(getattr(settings, "PLAY_STEP_SECONDS", 0.8))
