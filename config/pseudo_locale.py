"""The pseudo-locale ``en-xa`` ("Pseudo-English", Android's tag for it): every text that passes
through a translation is shown with its letters swapped for look-alikes (translate-toolkit's
podebug, ``--rewrite=unicode``: "Cards" → "Ƈȧřḓş"), so a text still in plain ASCII letters on a
page in it bypassed the translation. ``tests/e2e/test_pseudo_locale.py`` crawls the site in it.

Development only: ``CARDLAB_PSEUDO_LOCALE=1`` turns it on (the settings refuse it in
production). Its gettext catalogues are generated, never committed (``python -m
config.translations pseudo`` → ``var/pseudo_locale/``), and the registries' game words are a
language derived from their English by the same rewrite (``rules.localized``), so a game word
on a page looks like a translated sentence beside it.

translate-toolkit is a development dependency: it is imported when a text is first rewritten,
never by a site that has the pseudo-locale off.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any

PSEUDO_LANGUAGE = "en-xa"
PSEUDO_LANGUAGE_NAME = "Pseudo-English"
# Its entry in the settings' LANGUAGES (read by the settings themselves, so this module imports
# nothing at its top but the standard library).
PSEUDO_LANGUAGE_ENTRY = (PSEUDO_LANGUAGE, PSEUDO_LANGUAGE_NAME)
# gettext's folder name for the language (Django's ``to_locale("en-xa")``).
PSEUDO_LOCALE_FOLDER = "en_XA"
# Where ``python -m config.translations pseudo`` writes the catalogues, under the var folder.
PSEUDO_LOCALE_PATH = "pseudo_locale"


# What a rewrite keeps as it is, so a rewritten msgstr formats and renders as its msgid does:
# printf's and Python's %-placeholders (no space flag: "95 % of" is prose), str.format's fields
# with their format spec ({elo:.0f}; braces around prose, a JSON shape in a help text, are
# prose) and doubled braces, HTML tags (their attributes too) and
# entities, web and e-mail addresses. podebug's own placeholder parsing (--preserveplaceholders)
# misses format specs and tags with hyphenated attributes (data-testid) and keeps words after a
# slash ("date/time") as file names, so the text is cut here and podebug rewrites the prose.
KEPT = re.compile(
    r"%(?:\([^()]*\))?[#0+-]*(?:\d+|\*)?(?:\.\d+)?[diouxXeEfFgGcrsa%]"
    r"|\{\{|\}\}|\{[A-Za-z0-9_.\[\]]*(?:![rsa])?(?::[^{}\s]*)?\}"
    r"|</?[A-Za-z][\w-]*(?:\s[^<>]*)?/?>|&#?\w+;"
    r"|https?://[^\s<>\"]+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+")


@lru_cache(maxsize=1)
def _podebug() -> Any:
    from translate.tools.podebug import podebug

    return podebug(rewritestyle="unicode")


@lru_cache(maxsize=8192)
def pseudo_text(english: str) -> str:
    """``english`` as the pseudo-locale shows it: every ASCII letter outside what ``KEPT``
    keeps swapped for a look-alike by podebug's unicode rewrite, nothing added or dropped. The
    catalogues' msgstrs and the game words are both made by this function."""
    rewrite = _podebug().rewrite_unicode
    pieces, start = [], 0
    for kept in KEPT.finditer(english):
        pieces += [str(rewrite(english[start:kept.start()])), kept.group()]
        start = kept.end()
    pieces.append(str(rewrite(english[start:])))
    return "".join(pieces)


def pseudo_lang_info() -> dict[str, Any]:
    """The language's entry in Django's ``LANG_INFO`` (``get_language_info``, the switcher):
    its own name in itself, as ``name_local`` is for every language."""
    return {"bidi": False, "code": PSEUDO_LANGUAGE, "name": PSEUDO_LANGUAGE_NAME,
            "name_local": pseudo_text(PSEUDO_LANGUAGE_NAME)}


def pseudo_locale_install() -> None:
    """Make ``en-xa`` a language Django can describe and the registries can speak. The settings
    add it to ``LANGUAGES`` and its catalogues to ``LOCALE_PATHS``; this does the rest, at
    start-up (``config.apps``) or in a test that turns the pseudo-locale on."""
    from django.conf.locale import LANG_INFO

    from rules.localized import register_derived_language

    LANG_INFO[PSEUDO_LANGUAGE] = pseudo_lang_info()
    register_derived_language(PSEUDO_LANGUAGE, pseudo_text)


def pseudo_locale_uninstall() -> None:
    from django.conf.locale import LANG_INFO

    from rules.localized import unregister_derived_language

    LANG_INFO.pop(PSEUDO_LANGUAGE, None)
    unregister_derived_language(PSEUDO_LANGUAGE)


def pseudo_catalogue_folder(var_dir: Path) -> Path:
    """The folder to put in ``LOCALE_PATHS``: ``<var>/pseudo_locale`` (its catalogues are in
    ``en_XA/LC_MESSAGES/`` below it)."""
    return var_dir / PSEUDO_LOCALE_PATH


def pseudo_catalogue_file(var_dir: Path) -> Path:
    """The site's compiled pseudo catalogue: there when ``python -m config.translations pseudo``
    has run."""
    return pseudo_catalogue_folder(var_dir) / PSEUDO_LOCALE_FOLDER / "LC_MESSAGES" / "django.mo"
