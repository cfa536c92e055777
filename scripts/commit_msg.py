"""The commit-msg hook (.pre-commit-config.yaml): a subject of at most 72 characters that says
what changed, a blank line, then a body that says why. Merge commits git writes itself pass.

    python scripts/commit_msg.py .git/COMMIT_EDITMSG
    python scripts/commit_msg.py --pushed [BASE]      # CI (.ci/run): the commits a push adds

The hook is local and can be skipped; CI checks every commit a push adds, on a clean clone:
those after ``BASE`` — the argument, else ``$CARDLAB_PUSH_BASE`` (the CI service's "before"
commit of the push), else where ``origin/main`` meets ``HEAD`` when ``HEAD`` is ahead of it —
and when none of these is known (a clone of main itself), the last ``LAST`` commits.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

MAX_SUBJECT = 72
LAST = 20                   # commits checked when nothing says where the push began


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


def _git(*args: str, cwd: str | None = None) -> str:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True,
                          check=True).stdout


def _commit(ref: str, cwd: str | None) -> str | None:
    try:
        return _git("rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}", cwd=cwd).strip()
    except subprocess.CalledProcessError:
        return None


def pushed_range(base: str | None = None, cwd: str | None = None) -> list[str]:
    """``git rev-list`` arguments for the commits a push added (merge commits left out)."""
    for ref in (base, os.environ.get("CARDLAB_PUSH_BASE")):
        if ref and ref.strip("0") and _commit(ref, cwd):
            return [f"{ref}..HEAD"]
    main, head = _commit("origin/main", cwd), _commit("HEAD", cwd)
    if main and main != head:
        return [f"{_git('merge-base', 'HEAD', main, cwd=cwd).strip()}..HEAD"]
    return [f"--max-count={LAST}", "HEAD"]


def pushed_problems(base: str | None = None, cwd: str | None = None) -> list[str]:
    """Every problem of every commit message the push added, each naming its commit."""
    commits = _git("rev-list", "--no-merges", *pushed_range(base, cwd), cwd=cwd).split()
    found = []
    for commit in commits:
        message = _git("log", "-1", "--format=%B", commit, cwd=cwd)
        found += [f"{commit[:10]} {message.splitlines()[0] if message else ''}: {problem}"
                  for problem in problems(message)]
    return found


def main(argv: list[str]) -> int:
    if len(argv) > 1 and argv[1] == "--pushed":
        found = pushed_problems(argv[2] if len(argv) > 2 else None)
    else:
        found = problems(Path(argv[1]).read_text(encoding="utf-8"))
    for problem in found:
        print(f"commit message: {problem}", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
