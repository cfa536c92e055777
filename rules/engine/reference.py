"""The vocabulary reference page, built from the registries of ``ability_language.py``.

Every trigger, ability field, effect, target pick and field, filter, count, amount and condition
field gets an entry: its name, its description, the RULES.md id it implements (when it has one),
a JSON example and the English and Chinese text generated from that example. Nothing is written
by hand here except the examples of fields, which the registries do not carry; a field without
an example is listed all the same and ``missing_examples()`` names it (a test keeps it empty).

``python -m rules.engine.reference`` prints the page as Markdown; ``--write`` writes it to
``rules/engine/VOCABULARY.md``, the committed copy a test compares with (run it after changing
the vocabulary or the text generator).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rules.engine.ability_language import (
    ABILITY_FIELDS,
    AMOUNT_FIELDS,
    CONDITION_FIELDS,
    COUNT_FIELDS,
    EFFECTS,
    FILTER_FIELDS,
    TARGET_DOCS,
    TARGET_FIELDS,
    TRIGGERS,
    Field,
    Term,
)
from rules.engine.keywords import all_keywords
from rules.engine.reference_examples import FIELD_EXAMPLES, PICK_EXAMPLES
from rules.engine.rule_ids import cited_ids
from rules.engine.text import ability_text, effect_text, keywords_text, written_languages
from rules.engine.words import ATTRIBUTE_WORDS, KIND_WORDS, SECTION_WORDS
from rules.localized import (
    LANGUAGE_SHORT_NAME,
    SOURCE_LANGUAGE,
    catalogue_languages,
    catalogue_text,
)

PAGE = Path(__file__).with_name("VOCABULARY.md")
REGENERATE = "python -m rules.engine.reference --write"

# (section id, field registry) for the sections made of fields; each section's title is its
# word in ``words.SECTION_WORDS``.
FIELD_SECTIONS: tuple[tuple[str, Mapping[str, Field]], ...] = (
    ("target_field", TARGET_FIELDS),
    ("filter_field", FILTER_FIELDS),
    ("count_field", COUNT_FIELDS),
    ("amount_field", AMOUNT_FIELDS),
    ("condition_field", CONDITION_FIELDS),
)


def rule_ids(*texts: str) -> str:
    """The RULES.md ids named in a term's rule or doc, in order, without repeats."""
    return ", ".join(dict.fromkeys(i for text in texts for i in cited_ids(text)))


def descriptions(key: str, english: str) -> dict[str, str]:
    """A description in every language that has one: the registry's English, each other
    language's from its catalogue (``term_doc.<section>.<name>``, ``field_doc.<name>``: an
    effect's own fields have a type and no English description, but may have a translation)."""
    docs = {SOURCE_LANGUAGE: english} if english else {}
    for lang in catalogue_languages():
        text = catalogue_text(lang, key)
        if text:
            docs[lang] = text
    return docs


def field_info(name: str, spec: Field) -> dict[str, Any]:
    default = spec.default
    return {"name": name, "type": spec.type, "required": spec.required,
            "default": list(default) if isinstance(default, tuple) else default,
            "choices": list(spec.choices), "doc": spec.doc,
            "docs": descriptions(f"field_doc.{name}", spec.doc)}


def effect_trigger(effect: Any) -> str:
    """The trigger an effect example needs: skip_combat and combat_enemy only exist in combat."""
    dumped = json.dumps(effect)
    return "combat_start" if "skip_combat" in dumped or "combat_enemy" in dumped else "awaken"


def example_texts(example: dict[str, Any] | None, form: str,
                  names: Mapping[str, Mapping[str, str]] | None = None) -> dict[str, Any]:
    """``{"texts": {language: text}}``: an example's text in every language with a grammar;
    ``names`` (``{language: {code: name}}``) shows the faction and race codes it mentions by
    their names (a catalogue's), else as codes."""
    names = names or {}
    if example is None:
        return {"texts": {lang: "" for lang in written_languages()}}
    if form == "effect":
        trigger = effect_trigger(example)
        return {"texts": {lang: effect_text(example, lang, names.get(lang), trigger=trigger)
                          for lang in written_languages()}}
    return {"texts": {lang: ability_text(example, lang, names.get(lang))
                      for lang in written_languages()}}


def _entry(section: str, name: str, doc: str, rule: str, example: dict[str, Any] | None,
           form: str = "ability", **extra: Any) -> dict[str, Any]:
    return {"section": section, "name": name, "doc": doc,
            "docs": descriptions(f"term_doc.{section}.{name}", doc), "rule": rule,
            "example": example,
            "example_form": form, **example_texts(example, form), **extra}


def _term_entry(section: str, term: Term, form: str) -> dict[str, Any]:
    return _entry(section, term.name, term.doc, rule_ids(term.rule, term.doc), term.example,
                  form, kinds=list(term.kinds),
                  fields=[field_info(n, f) for n, f in term.fields.items()])


def reference_entries() -> list[dict[str, Any]]:
    """Every term of the vocabulary as a plain dict (JSON-able), in page order."""
    entries = [_term_entry("trigger", t, "ability") for t in TRIGGERS.values()]
    ability_fields = dict(ABILITY_FIELDS)
    only_on: dict[str, str] = {}
    for term in TRIGGERS.values():           # trigger-specific fields (cost, whose)
        for name, spec in term.fields.items():
            ability_fields.setdefault(name, spec)
            only_on[name] = ", ".join(filter(None, [only_on.get(name), term.name]))
    for name, spec in ability_fields.items():
        entries.append(_entry("ability_field", name, spec.doc, rule_ids(spec.doc),
                              FIELD_EXAMPLES.get(("ability_field", name)),
                              field=field_info(name, spec), only_on=only_on.get(name, "")))
    entries += [_term_entry("effect", t, "effect") for t in EFFECTS.values()]
    for pick, doc in TARGET_DOCS.items():
        entries.append(_entry("target_pick", pick, doc, rule_ids(doc), PICK_EXAMPLES.get(pick)))
    for section, registry in FIELD_SECTIONS:
        for name, spec in registry.items():
            entries.append(_entry(section, name, spec.doc, rule_ids(spec.doc),
                                  FIELD_EXAMPLES.get((section, name)),
                                  field=field_info(name, spec)))
    for kw in all_keywords():
        code = kw.code
        entries.append({"section": "keyword", "name": code, "doc": kw.rule_en,
                        "docs": descriptions(kw.localized_rule.key, kw.rule_en),
                        "rule": kw.rule, "example": {"keywords": [code]},
                        "example_form": "keywords",
                        "texts": {lang: keywords_text([code], lang)
                                  for lang in written_languages()}})
    return entries


# ---------------------------------------------------------------- Markdown

_TYPE_WORDS = {
    "int": "whole number", "bool": "true or false", "amount": "amount (a whole number or "
    "`{\"count\": ...}`)", "count": "count", "filter": "filter", "condition": "condition",
    "target": "target (a pick name or an object)", "effects": "list of effects",
    "options": "list of two or more effect lists", "enum": "one of", "values":
    "a value or a list of values",
}


def _sentence(doc: str) -> str:
    doc = doc.strip()
    return doc[:1].upper() + doc[1:] + ("" if doc.endswith(".") else ".")


def _field_line(info: Mapping[str, Any], with_doc: bool = True) -> str:
    kind = _TYPE_WORDS.get(info["type"], info["type"])
    if info["choices"]:
        sep = ": " if info["type"] == "values" else " "
        kind += sep + ", ".join(f"`{c}`" for c in info["choices"])
    parts = [kind, "required" if info["required"] else None,
             None if info["default"] is None or info["required"]
             else f"default `{json.dumps(info['default'])}`"]
    line = f"`{info['name']}` — " + "; ".join(p for p in parts if p)
    return line + (f": {info['doc']}" if info["doc"] and with_doc else "")


def _entry_markdown(entry: Mapping[str, Any]) -> list[str]:
    title = f"### `{entry['name']}`" + (f" ({entry['rule']})" if entry["rule"] else "")
    lines = [title, ""]
    if entry["doc"]:
        lines += [_sentence(entry["doc"]), ""]
    lines += [line for lang, doc in entry["docs"].items() if lang != SOURCE_LANGUAGE
              for line in (doc, "")]
    if "field" in entry:     # the entry's doc is the field's doc, shown just above
        lines += [f"- {_field_line(entry['field'], with_doc=False)}"]
    if entry.get("only_on"):
        triggers = " or ".join(f"`{t}`" for t in entry["only_on"].split(", "))
        lines += [f"- Only in abilities with trigger {triggers}."]
    if entry.get("kinds"):
        lines += [f"- On cards of kind: {', '.join(entry['kinds'])}."]
    lines += [f"- {_field_line(info)}" for info in entry.get("fields", ())]
    if lines[-1]:
        lines.append("")
    if entry["example"] is not None:
        lines += ["```json", json.dumps(entry["example"], ensure_ascii=False), "```", "",
                  *(f"- {LANGUAGE_SHORT_NAME.text(lang)}: {text}"
                    for lang, text in entry["texts"].items()), ""]
    return lines


def reference_markdown() -> str:
    """The whole reference page as Markdown (what VOCABULARY.md holds)."""
    lines = [
        "# The effect vocabulary",
        "",
        "Generated from `rules/engine/ability_language.py` "
        f"by `{REGENERATE}`; do not edit by hand.",
        "Card text in both languages is generated from the same data by `rules/engine/text.py`.",
        "",
        "An ability is `{\"trigger\": ..., \"effects\": [...]}` plus the ability fields below.",
        "A target may be written as a pick name (`\"self\"`) or as an object; omitted fields take",
        "their defaults. Rule ids refer to `rules/RULES.md`.",
        "",
    ]
    section = None
    for entry in reference_entries():
        if entry["section"] != section:
            section = entry["section"]
            lines += [f"## {SECTION_WORDS[section].name('en')}", ""]
        lines += _entry_markdown(entry)
    languages = catalogue_languages()
    others = [lang for lang in languages if lang != SOURCE_LANGUAGE]
    lines += ["## Words", "",
              " | ".join(["| data", *(LANGUAGE_SHORT_NAME.text(lang) for lang in languages)])
              + " |", "| --- " * (1 + len(languages)) + "|"]
    named = [(k.code, k.name_en, [k.name(lang) for lang in others]) for k in all_keywords()]
    named += [(w.code, w.name_en, [w.name(lang) for lang in others])
              for w in (*ATTRIBUTE_WORDS.values(), *KIND_WORDS.values())]
    lines += [" | ".join([f"| `{code}`", english, *translations]) + " |"
              for code, english, translations in named]
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    page = reference_markdown()
    if "--write" in argv:
        PAGE.write_text(page, encoding="utf-8")
        print(f"wrote {PAGE}")
    else:
        sys.stdout.write(page)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
