"""No user-facing message escapes gettext.

ruff's ``INT`` rules check how ``gettext`` is called; this test checks that it *is* called. It
parses the apps' Python with :mod:`ast` and fails on an English string literal (or f-string)
handed to a call whose message a user reads:

- DRF's ``ValidationError`` / ``PermissionDenied`` / ``NotFound`` / ``ParseError`` /
  ``NotAuthenticated``, Django's ``forms.ValidationError`` and the apps' own input errors
  (``PlayError``, ``SourceError``, ``SimulationInputError``…) (first argument, or ``detail=`` /
  ``message=``), the values of a dict of field errors included;
- ``Response({"detail": …})``;
- ``messages.error/warning/info/success/debug(request, message)`` and
  ``messages.add_message(request, level, message)``;
- the labels of Django's choices (``class State(models.TextChoices): DONE = "done", "Done"``),
  which the admin and the pages show.

A message is fine when it is a call to ``gettext`` / ``gettext_lazy`` / ``ngettext`` /
``pgettext`` / ``gettext_noop`` (or their ``_`` aliases), a name bound to one, or anything else
that is not a literal (``str(exc)``, a module constant made with ``gettext_lazy``…). A name bound
at module level to a plain string literal is read through, so moving an English string to a
constant does not hide it. ``"…".format(…)`` and ``str(X).format(…)`` are read through too.

``ALLOWED`` lists the reviewed exceptions, as ``(path, line text)`` pairs.
"""
from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APPS = ("accounts", "balance", "cards", "collection", "common", "config", "decks", "play",
        "simulations", "tools", "work")

GETTEXT = {"gettext", "gettext_lazy", "gettext_noop", "ngettext", "ngettext_lazy", "pgettext",
           "pgettext_lazy", "npgettext", "npgettext_lazy", "_", "_lazy", "_noop"}
ERRORS = {"ValidationError", "PermissionDenied", "NotFound", "ParseError", "NotAuthenticated",
          "AuthenticationFailed", "MethodNotAllowed", "Throttled",
          # the apps' own errors, whose message the API or a page shows as it is
          "BalanceInputError", "CollectionInputError", "DeckImportError", "DeckInputError",
          "SharingInputError", "PlayError", "ActionInputError", "SimulationInputError",
          "SourceError", "QuerySyntaxError", "QueryValidationError", "EpsilonError"}
MESSAGE_LEVELS = {"error", "warning", "info", "success", "debug"}

# Reviewed: strings that reach no user as English prose (codes, machine-read words).
ALLOWED: set[tuple[str, str]] = set()


def sources() -> Iterator[Path]:
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" not in path.parts:
                yield path


def func_name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def literal_constants(tree: ast.Module) -> dict[str, ast.expr]:
    """Module-level names bound once to a string literal or an f-string."""
    found: dict[str, ast.expr] = {}
    for stmt in tree.body:
        targets: list[ast.expr] = []
        value: ast.expr | None = None
        if isinstance(stmt, ast.Assign):
            targets, value = stmt.targets, stmt.value
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            targets, value = [stmt.target], stmt.value
        for target in targets:
            if isinstance(target, ast.Name) and value is not None and bare(value):
                found[target.id] = value
    return found


def bare(node: ast.expr) -> bool:
    return (isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.strip()
            != "") or isinstance(node, ast.JoinedStr)


def prose(node: ast.expr) -> Iterator[ast.expr]:
    """English words given to a translated message's placeholders (``name or "A deck"``)."""
    if isinstance(node, ast.BoolOp):
        for value in node.values:
            yield from prose(value)
    elif isinstance(node, ast.IfExp):
        yield from prose(node.body)
        yield from prose(node.orelse)
    elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
          and re.search(r"[A-Za-z]{2,}\W+[A-Za-z]", node.value)):
        yield node


def escapes(node: ast.expr, constants: dict[str, ast.expr]) -> Iterator[ast.expr]:
    """The literals in a message expression that no gettext call wraps."""
    if bare(node):
        yield node
    elif isinstance(node, ast.Name) and node.id in constants:
        yield node
    elif isinstance(node, ast.Dict):
        for value in node.values:
            yield from escapes(value, constants)
    elif isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        for element in node.elts:
            yield from escapes(element, constants)
    elif isinstance(node, ast.BinOp):
        yield from escapes(node.left, constants)
        yield from escapes(node.right, constants)
    elif isinstance(node, ast.IfExp):
        yield from escapes(node.body, constants)
        yield from escapes(node.orelse, constants)
    elif isinstance(node, ast.Call):
        name = func_name(node.func)
        if name in GETTEXT:
            return
        if name == "format" and isinstance(node.func, ast.Attribute):
            yield from escapes(node.func.value, constants)
            for argument in [*node.args, *(k.value for k in node.keywords)]:
                yield from prose(argument)
        elif name == "str" and node.args:
            yield from escapes(node.args[0], constants)


def messages_of(call: ast.Call) -> Iterator[ast.expr]:
    """The arguments of ``call`` that carry a user-facing message."""
    name = func_name(call.func)
    keywords = {k.arg: k.value for k in call.keywords}
    if name in ERRORS:
        if call.args:
            yield call.args[0]
        for key in ("detail", "message"):
            if key in keywords:
                yield keywords[key]
    elif name == "Response" and call.args and isinstance(call.args[0], ast.Dict):
        for key, value in zip(call.args[0].keys, call.args[0].values, strict=True):
            if isinstance(key, ast.Constant) and key.value == "detail":
                yield value
    elif (isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name)
          and call.func.value.id == "messages"):
        if name in MESSAGE_LEVELS and len(call.args) >= 2:
            yield call.args[1]
        elif name == "add_message" and len(call.args) >= 3:
            yield call.args[2]


CHOICES = {"TextChoices", "IntegerChoices", "Choices"}


def choice_labels(tree: ast.AST) -> Iterator[ast.expr]:
    """The label of each member of a Django choices class (``NAME = value, label``)."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.ClassDef) or not any(
                func_name(base) in CHOICES for base in node.bases):
            continue
        for stmt in node.body:
            if (isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Tuple)
                    and len(stmt.value.elts) >= 2 and not code(stmt.value.elts[-1])):
                yield stmt.value.elts[-1]


def code(node: ast.expr) -> bool:
    """A label that is a code in every language (a card rarity "SSR"), not words."""
    return (isinstance(node, ast.Constant) and isinstance(node.value, str)
            and re.fullmatch(r"[A-Z0-9_+-]+", node.value) is not None)


def offences(path: Path) -> Iterator[str]:
    text = path.read_text(encoding="utf-8")
    tree = ast.parse(text, filename=str(path))
    constants = literal_constants(tree)
    lines = text.splitlines()
    relative = path.relative_to(ROOT).as_posix()
    messages = [message for node in ast.walk(tree) if isinstance(node, ast.Call)
                for message in messages_of(node)]
    for message in [*messages, *choice_labels(tree)]:
        for literal in escapes(message, constants):
            line = lines[literal.lineno - 1].strip()
            if (relative, line) not in ALLOWED:
                yield f"{relative}:{literal.lineno}: {line}"


def test_user_facing_messages_go_through_gettext() -> None:
    found = [offence for path in sources() for offence in offences(path)]
    assert not found, ("English messages outside gettext (wrap them in gettext_lazy and "
                       "translate them in locale/zh_Hans/LC_MESSAGES/django.po):\n"
                       + "\n".join(found))


def check(source: str) -> list[str]:
    tree = ast.parse(source)
    constants = literal_constants(tree)
    messages = [message for node in ast.walk(tree) if isinstance(node, ast.Call)
                for message in messages_of(node)]
    return [ast.unparse(literal) for message in [*messages, *choice_labels(tree)]
            for literal in escapes(message, constants)]


def test_the_guard_catches_what_it_should() -> None:
    assert check('raise ValidationError({"as": ["Choose text or csv."]})') == [
        "'Choose text or csv.'"]
    assert check('raise serializers.ValidationError(f"No {x}.")') == ["f'No {x}.'"]
    assert check('raise PermissionDenied(detail="Not yours.")') == ["'Not yours.'"]
    assert check('return Response({"detail": "Gone."}, status=410)') == ["'Gone.'"]
    assert check('messages.error(request, "Failed.")') == ["'Failed.'"]
    assert check('raise forms.ValidationError("Bad {x}".format(x=1))') == ["'Bad {x}'"]
    assert check('BAD = "Bad."\nraise ValidationError({"a": [BAD]})') == ["BAD"]
    assert check('class State(models.TextChoices):\n    DONE = "done", "Done"') == ["'Done'"]


def test_the_guard_lets_translated_messages_pass() -> None:
    assert check('raise ValidationError({"as": [gettext("Choose text or csv.")]})') == []
    assert check('raise ValidationError(_("No {x}.").format(x=x))') == []
    assert check('BAD = gettext_lazy("Bad.")\nraise ValidationError(str(BAD).format())') == []
    assert check('raise ValidationError(str(exc))') == []
    assert check('return Response({"results": "x"})') == []
    assert check('raise ValidationError({"a": ["x"]}, code="invalid")') == ["'x'"]
    assert check('class State(models.TextChoices):\n    DONE = "done", _("Done")') == []
    assert check('class State(models.TextChoices):\n    DONE = "done"') == []
    assert check('class Rarity(models.TextChoices):\n    SSR = "SSR", "SSR"') == []
