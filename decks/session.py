"""Drafts in the session: the builder's working copy, for anyone, signed in or not.

A draft is keyed by ``new`` (a deck not saved yet) or by a saved deck's uid (edits not saved
yet). Logging in keeps the session's data, so a deck built anonymously survives signing in
to save it.
"""

from __future__ import annotations

from django.http import HttpRequest

from decks.drafts import Draft

SESSION_KEY = "deck_drafts"
REVISIONS_KEY = "deck_draft_revisions"   # per draft, how many times it was stored
NEW = "new"
MAX_DRAFTS = 10  # saved decks being edited at once; the oldest edit is dropped beyond this


def draft_load(request: HttpRequest, key: str) -> Draft | None:
    data = request.session.get(SESSION_KEY, {})
    if not isinstance(data, dict) or key not in data:
        return None
    return Draft.from_session(data[key])


def draft_store(request: HttpRequest, key: str, draft: Draft) -> None:
    data = request.session.get(SESSION_KEY, {})
    if not isinstance(data, dict):
        data = {}
    data.pop(key, None)
    data[key] = draft.to_session()
    while len(data) > MAX_DRAFTS:
        data.pop(next(k for k in data if k != NEW))
    request.session[SESSION_KEY] = data
    revisions = request.session.get(REVISIONS_KEY, {})
    if not isinstance(revisions, dict):
        revisions = {}
    revisions = {k: v for k, v in revisions.items() if k in data and isinstance(v, int)}
    revisions[key] = draft_revision(request, key) + 1
    request.session[REVISIONS_KEY] = revisions


def draft_revision(request: HttpRequest, key: str) -> int:
    """How many times the draft ``key`` was stored: the builder's panel says it, so a page
    keeps the newest of two answers that arrive out of order. Counts on after a discard or a
    save (the draft dropped), so a later panel never reads as older than an earlier one."""
    revisions = request.session.get(REVISIONS_KEY, {})
    found = revisions.get(key, 0) if isinstance(revisions, dict) else 0
    return found if isinstance(found, int) else 0


def draft_drop(request: HttpRequest, key: str) -> None:
    data = request.session.get(SESSION_KEY, {})
    if isinstance(data, dict) and key in data:
        del data[key]
        request.session[SESSION_KEY] = data
