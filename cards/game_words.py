"""The one door through which a page names a game word: ``game_word(kind, code)``.

The engine names its words once, in English and Chinese (``rules.engine.keywords``,
``rules.engine.words``, ``rules.ai.agents``); the site's ``.po`` files hold its own sentences only.
A template asks ``{{ code|game_word:"keyword" }}``; Python code asks ``game_word("keyword",
code)``. Both answer in the page's language (``common.language.reader_language``) unless ``lang`` is
given, and show an unknown code as it is, so a word registered later is never an error.

Kinds: ``keyword``, ``attribute``, ``kind`` (hero, minion, item; ``kinds``: as a heading over
several, "Minions"), ``trigger``, ``field`` (a card's printed fields; ``fields``: the plural,
"factions"), ``duration`` (how long an effect lasts: "this turn"), ``vocabulary_section`` (a
part of the ability language, as the vocabulary page titles it: "Triggers"), ``agent`` (an AI
player's name, as in a sentence: "greedy"; a heading capitalises it, ``|capfirst``),
``agent_label`` (its name in a menu, with what it costs), ``skill`` (a level of play, as in a
sentence: "skilled play"), ``agent_skill`` (the level of play an agent's win rates stand for,
by the agent's name), ``ruleset`` (a ruleset's name) and
``ruleset_option`` (an option of the rules in a sentence, for its ``value``: "a draw after 20
turns per player").
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from django.utils.functional import lazy
from django.utils.translation import gettext

from common.language import reader_language
from rules.ai.agents import AGENT_NAMES, AGENTS, SKILLS
from rules.engine import words as engine_words
from rules.engine.keywords import all_keywords
from rules.engine.ruleset_words import RULESET_OPTIONS, ruleset_name
from rules.engine.words import Word
from rules.localized import Sentence

UNKNOWN_KIND = "unknown kind of game word {kind!r} (known: {known})"


def _agent_title(code: str, lang: str, prose: bool) -> str | None:
    spec = next((s for s in AGENTS if s.name == code), None)
    return spec.title(lang) if spec is not None else None


def _agent_label(code: str, lang: str, prose: bool) -> str | None:
    spec = next((s for s in AGENTS if s.name == code), None)
    return spec.label(lang) if spec is not None else None


def _skill(code: str, lang: str, prose: bool) -> str | None:
    skill = SKILLS.get(code)
    return skill.name(lang) if skill is not None else None


def _agent_skill(code: str, lang: str, prose: bool) -> str | None:
    spec = next((s for s in AGENTS if s.name == code), None)
    return _skill(spec.skill, lang, prose) if spec is not None else None


def _keyword(code: str, lang: str, prose: bool) -> str | None:
    entry = next((k for k in all_keywords() if k.code == code), None)
    if entry is None:
        return None
    return entry.prose(lang) if prose else entry.name(lang)


# The tables are looked up when a word is asked for, not bound at import, so the registry the
# engine holds at that moment is the one a page reads.
def _table(table: str) -> Callable[[str, str, bool], str | None]:
    def read(code: str, lang: str, prose: bool) -> str | None:
        words: Mapping[str, Word] = getattr(engine_words, table)
        word = words.get(code)
        if word is None:
            return None
        return word.prose(lang) if prose else word.name(lang)
    return read


def _plural(table: str) -> Callable[[str, str, bool], str | None]:
    def read(code: str, lang: str, prose: bool) -> str | None:
        words: Mapping[str, Word] = getattr(engine_words, table)
        word = words.get(code)
        if word is None:
            return None
        return word.plural_prose(lang) if prose else word.plural(lang)
    return read


READERS: dict[str, Callable[[str, str, bool], str | None]] = {
    "keyword": _keyword,
    "attribute": _table("ATTRIBUTE_WORDS"),
    "kind": _table("KIND_WORDS"),
    "kinds": _plural("KIND_WORDS"),
    "trigger": _table("TRIGGER_WORDS"),
    "field": _table("FIELD_WORDS"),
    "fields": _plural("FIELD_WORDS"),
    "duration": _table("DURATION_WORDS"),
    "vocabulary_section": _table("SECTION_WORDS"),
    "agent": _agent_title,
    "agent_label": _agent_label,
    "skill": _skill,
    "agent_skill": _agent_skill,
    "ruleset": lambda code, lang, prose: ruleset_name(code, lang),
}


def game_word(kind: str, code: object, *, lang: str | None = None, prose: bool = False,
              value: object = None) -> str:
    """``code``'s name in ``lang`` (default: the page's language): as a label ("Fire",
    "Last words"), or with ``prose`` as inside a sentence ("fire", "last-words"); a ruleset
    option as the sentence for its ``value``. An unregistered code is returned as it is (an
    option as ``code: value``); an unknown ``kind`` is a programming error."""
    lang = lang or reader_language()
    text = "" if code is None else str(code)
    if kind == "ruleset_option":
        option = RULESET_OPTIONS.get(text)
        return option.sentence(value, lang) if option else f"{text.replace('_', ' ')}: {value}"
    try:
        reader = READERS[kind]
    except KeyError:
        known = ", ".join([*READERS, "ruleset_option"])
        raise ValueError(UNKNOWN_KIND.format(kind=kind, known=known)) from None
    return reader(text, lang, prose) or text


# For labels fixed at import time (model choices, form fields): read when shown.
game_word_lazy = lazy(game_word, str)


def game_words(kind: str, codes: Iterable[str], *,
               lang: str | None = None) -> list[tuple[str, str]]:
    """(code, name) pairs, for a form's choices."""
    return [(code, game_word(kind, code, lang=lang)) for code in codes]


def agent_menu() -> list[tuple[str, str]]:
    """(name, label) of every agent in registry order: the choices of a form's agent menu."""
    return game_words("agent_label", AGENT_NAMES)


def say(sentence: Sentence | str, *, path: bool = True) -> str:
    """A sentence the rules library reports (``rules.localized.Sentence``: a card data problem,
    a patch's, a card set file's, a refused ruleset) in the reader's language: its English
    template through gettext, its parameters put in (a card kind by its name), after its path
    unless ``path`` is False. A plain string (the site's own sentence) as it is."""
    if not isinstance(sentence, Sentence):
        return str(sentence)
    params = dict(sentence.params)
    if isinstance(params.get("kind"), str):
        params["kind"] = game_word("kind", params["kind"], prose=True)
    text = gettext(sentence.template).format(**params)
    return f"{sentence.path}: {text}" if path and sentence.path else text


def says(sentences: Iterable[Sentence | str]) -> str:
    """Several sentences (``say``) joined as one message."""
    return "; ".join(say(sentence) for sentence in sentences)
