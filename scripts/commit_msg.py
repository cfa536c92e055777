"""The commit-msg hook (.pre-commit-config.yaml): a subject of at most 72 characters that says
what changed, a blank line, then a body that says why. Merge commits git writes itself pass.

    python scripts/commit_msg.py .git/COMMIT_EDITMSG
"""

from __future__ import annotations

import sys
from pathlib import Path

MAX_SUBJECT = 72


def problems(message: str) -> list[str]:
    lines = [line for line in message.splitlines() if not line.startswith("#")]
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines or not lines[0].strip():
        return ["the message is empty"]
    subject = lines[0]
    if subject.startswith(("Merge ", "Revert ", "fixup! ", "squash! ")):
        return []
    found = []
    if len(subject) > MAX_SUBJECT:
        found.append(f"the subject is {len(subject)} characters; at most {MAX_SUBJECT}")
    if len(lines) < 3 or lines[1].strip() or not any(line.strip() for line in lines[2:]):
        found.append("no body: after the subject, a blank line, then why the change is made")
    return found


def main(argv: list[str]) -> int:
    found = problems(Path(argv[1]).read_text(encoding="utf-8"))
    for problem in found:
        print(f"commit message: {problem}", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
