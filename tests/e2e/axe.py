"""axe-core in the browser tests: the accessibility rules a page must pass, run in the page
itself. The script is axe-core's own ``axe.min.js`` as the ``axe-playwright-python`` package
ships it (pinned in pyproject.toml), so no download happens at test time.

``axe_problems(page)`` runs every rule of WCAG 2.x A and AA and axe's best practices on the
page as it stands, and returns one line per serious or critical violation: the rule, what it
asks, and the first few elements that break it.
"""

from __future__ import annotations

from axe_playwright_python.base import AXE_SCRIPT

FAILING = ("serious", "critical")
SHOWN_NODES = 3
# Every rule tag axe has for WCAG 2.0-2.2 A/AA, and its best practices.
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
RUN = """tags => axe.run(document, {runOnly: {type: 'tag', values: tags},
                                    resultTypes: ['violations']})
             .then(r => r.violations.map(v => ({
                 id: v.id, impact: v.impact, help: v.help,
                 nodes: v.nodes.map(n => n.target.join(' ') + ' ' +
                                         (n.failureSummary || '').split('\\n').slice(1, 2)
                                                                 .join('').trim())})))"""


# An element whose htmx request is in flight is drawn faded (site.css: .htmx-request), which
# axe would read as text of too little contrast: it runs once no request is in flight.
QUIET = "() => !document.querySelector('.htmx-request')"
QUIET_MS = 15_000


def axe_violations(page) -> list[dict]:
    """axe's violations of the page (every impact), once no htmx request is in flight."""
    page.wait_for_function(QUIET, timeout=QUIET_MS)
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE_SCRIPT)
    return page.evaluate(RUN, TAGS)


def axe_problems(page) -> list[str]:
    """One line per serious or critical violation on the page."""
    found = []
    for violation in axe_violations(page):
        if violation["impact"] not in FAILING:
            continue
        nodes = violation["nodes"]
        more = f" (+{len(nodes) - SHOWN_NODES} more)" if len(nodes) > SHOWN_NODES else ""
        found.append(f"{violation['id']} ({violation['impact']}): {violation['help']} — "
                     + "; ".join(nodes[:SHOWN_NODES]) + more)
    return found
