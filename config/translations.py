"""Keep the site's translation catalogues in step with the code, without GNU gettext to compile.

    python -m config.translations extract   # add newly marked strings to every locale/*.po
    python -m config.translations compile   # write each .mo from its .po (pure Python, polib)

``extract`` runs Django's ``makemessages`` (which needs GNU gettext's xgettext); ``compile``
needs only polib (in the ``dev`` extra), so the committed ``.mo`` files can be rebuilt on any
machine. The site itself reads the committed ``.mo`` files and needs neither.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "locale"
# Folders that hold no source of the site's own (installed packages, runtime state, outputs).
NOT_SOURCE = [".venv", "var", "staticfiles", "artifacts", "build", "node_modules", "tests"]
USAGE = "usage: python -m config.translations extract|compile"


def compile_catalogues() -> list[Path]:
    """Write every ``locale/*/LC_MESSAGES/*.mo`` from its ``.po``; return the files written."""
    import polib

    written = []
    for po_path in sorted(LOCALE.glob("*/LC_MESSAGES/*.po")):
        mo_path = po_path.with_suffix(".mo")
        polib.pofile(str(po_path)).save_as_mofile(str(mo_path))
        written.append(mo_path)
    return written


def extract() -> None:
    """Add the strings marked in templates and modules to every language's ``.po``."""
    import django
    from django.core.management import call_command

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    os.chdir(ROOT)
    languages = sorted(p.name for p in LOCALE.iterdir() if (p / "LC_MESSAGES").is_dir())
    call_command("makemessages", locale=languages, ignore_patterns=NOT_SOURCE,
                 no_obsolete=True, no_location=True)


def main(argv: list[str]) -> int:
    if argv == ["extract"]:
        extract()
    elif argv == ["compile"]:
        for path in compile_catalogues():
            print(f"wrote {path.relative_to(ROOT)}")
    else:
        print(USAGE, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
