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


def challenge_hours() -> float:
    """How long a challenge waits for its answer (``PLAY_CHALLENGE_HOURS``, default 24)."""
    return float(getattr(settings, "PLAY_CHALLENGE_HOURS", 24))


def max_open_challenges() -> int:
    """Challenges a person may have waiting at once (``PLAY_MAX_OPEN_CHALLENGES``)."""
    return int(getattr(settings, "PLAY_MAX_OPEN_CHALLENGES", 5))


def max_friend_games() -> int:
    """Games between people a person may have in progress at once (``PLAY_MAX_FRIEND_GAMES``)."""
    return int(getattr(settings, "PLAY_MAX_FRIEND_GAMES", 10))


def challenge_poll_seconds() -> float:
    """How often an open Play page asks whether a challenge came or went
    (``PLAY_CHALLENGE_POLL_SECONDS``, default 10)."""
    return float(getattr(settings, "PLAY_CHALLENGE_POLL_SECONDS", 10))


DEFAULT_CLOCK = {"turn": 90, "reserve": 300, "away": 120}


def friend_clock() -> dict[str, float]:
    """The turn clock of a game between people (``PLAY_CLOCK``): seconds a turn may take before
    the reserve is used (``turn``), the reserve of each seat for the whole game (``reserve``),
    and how long the player to move may be gone (no page of the game open) before losing by
    timeout (``away``)."""
    return {**DEFAULT_CLOCK, **dict(getattr(settings, "PLAY_CLOCK", {}))}


def watch_seconds() -> float:
    """How often a process's watcher reads the versions of the games its pages wait on
    (``PLAY_WATCH_SECONDS``, default 0.2)."""
    return float(getattr(settings, "PLAY_WATCH_SECONDS", 0.2))


def stream_hold_seconds() -> float:
    """How long a stream served by a synchronous (WSGI) server holds its connection before the
    browser reconnects (``PLAY_STREAM_HOLD``, default 10): under ASGI a stream stays open."""
    return float(getattr(settings, "PLAY_STREAM_HOLD", 10))
