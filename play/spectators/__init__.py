"""Spectators of games between people: consent, the redacted view, the watcher count, the
lobby's list of games that may be watched."""
