"""Templates never show their own comments: Django's {# #} comment ends at the line's end, so
one spread over two lines is printed on the page as text."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
UNCLOSED = re.compile(r"\{#(?!.*#\})")


def test_no_template_comment_spans_lines():
    offenders = []
    for path in ROOT.glob("**/templates/**/*.html"):
        if ".venv" in path.parts:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if UNCLOSED.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{number}")
    assert not offenders, "use {% comment %} for comments over several lines: " + \
        ", ".join(offenders)
