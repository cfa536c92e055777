"""Waiting for a page's live (htmx) updates to land, shared by the browser tests.

A search box that updates as you type sends its request after a debounce, so a test that types,
presses Enter and then reads or focuses a result can act on results about to be replaced. These
helpers wait until no request has been in flight for longer than any debounce.
"""

from __future__ import annotations


def track_requests(page) -> None:
    """Count the page's requests in flight, for quiet()."""
    page.in_flight = set()
    page.on("request", lambda request: page.in_flight.add(request))
    page.on("requestfinished", lambda request: page.in_flight.discard(request))
    page.on("requestfailed", lambda request: page.in_flight.discard(request))


def quiet(page, for_ms: int = 700, timeout_ms: int = 15_000) -> None:
    """Wait until no request has been in flight for `for_ms` — longer than the search boxes'
    debounce (450 ms at most) and htmx's settle delay — so no live update is on its way.
    (wait_for_load_state("networkidle") cannot do this: it returns at once once the page has
    loaded.)"""
    quiet_since = None
    for _ in range(timeout_ms // 50):
        page.wait_for_timeout(50)
        if page.in_flight:
            quiet_since = None
        elif quiet_since is None:
            quiet_since = 0
        else:
            quiet_since += 50
            if quiet_since >= for_ms:
                return
    raise AssertionError(f"the page kept loading for {timeout_ms} ms: {page.in_flight}")
