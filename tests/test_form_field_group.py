"""Every form's field group is the project's templates/forms/field.html (FORM_RENDERER)."""
import re
from pathlib import Path

import pytest
from django import forms
from django.template.loader import render_to_string


class _Form(forms.Form):
    name = forms.CharField(label="Name", help_text="A hint.")
    many = forms.MultipleChoiceField(label="Many", choices=[("a", "A")],
                                     widget=forms.CheckboxSelectMultiple)
    tick = forms.BooleanField(label="Tick", required=False)


def test_a_field_group_is_a_label_the_widget_its_hint_and_its_errors():
    html = _Form(data={})["name"].as_field_group()
    assert html.startswith('<div class="field has-error">')
    assert '<label for="id_name">Name</label>' in html
    assert '<span class="hint" id="id_name_helptext">A hint.</span>' in html
    assert '<span class="field-error" role="alert">This field is required.</span>' in html


def test_a_list_of_choices_is_a_labelled_group_and_a_tick_box_sits_in_its_label():
    form = _Form()
    many = form["many"].as_field_group()
    assert '<span class="label" id="many-label">Many</span>' in many
    assert '<div class="opponents" role="group" aria-labelledby="many-label">' in many
    tick = form["tick"].as_field_group()
    assert '<label class="check"><input type="checkbox" name="tick"' in tick


def test_a_page_may_name_a_list_of_choices_in_its_own_words_and_drop_its_box():
    html = render_to_string("forms/field.html", {"field": _Form()["many"], "group_label": "Own",
                                                 "group_class": "keyword-list"})
    assert '<span class="label" id="many-label">Own</span>' in html
    assert '<div class="keyword-list" role="group" aria-labelledby="many-label">' in html


class _Radios(forms.Form):
    kind = forms.ChoiceField(label="Kind", choices=[("a", "A"), ("b", "B")], help_text="Pick.",
                             widget=forms.RadioSelect)


def test_radio_buttons_are_a_fieldset_named_by_its_legend_that_names_its_notes():
    html = _Radios(data={})["kind"].as_field_group()
    assert html.startswith('<fieldset class="field has-error" '
                           'aria-describedby="id_kind_helptext id_kind_error">')
    assert "<legend>Kind</legend>" in html and "<label for" not in html
    assert '<label class="check"><input type="radio" name="kind" value="a"' in html
    assert 'id="id_kind_helptext"' in html and 'id="id_kind_error"' in html
    assert "aria-describedby" not in _Radios(auto_id=False)["kind"].as_field_group()


# --- aria-describedby names only what the group renders ------------------------------------

def _dangling(html: str) -> list[str]:
    """The ids an aria-describedby in ``html`` names that no element of ``html`` has."""
    ids = set(re.findall(r'\bid="([^"]+)"', html))
    named = [i for value in re.findall(r'aria-describedby="([^"]*)"', html) for i in value.split()]
    return [i for i in named if i not in ids]


class _Hinted(forms.Form):
    hinted = forms.CharField(label="Hinted", help_text="A hint.")
    plain = forms.CharField(label="Plain")
    many = forms.MultipleChoiceField(label="Many", choices=[("a", "A")], help_text="Pick.",
                                     widget=forms.CheckboxSelectMultiple)
    kind = forms.ChoiceField(label="Kind", choices=[("a", "A")], help_text="Pick one.",
                             widget=forms.RadioSelect)


def _groups(form: forms.Form) -> list[str]:
    paragraph = [render_to_string("forms/field_paragraph.html", {"field": field})
                 for field in form]
    return [field.as_field_group() for field in form] + paragraph


@pytest.mark.parametrize("data", [
    None, {}, {"hinted": "x", "plain": "y", "many": ["a"], "kind": "a"}, {"many": ["z"]},
], ids=["unbound", "errors", "valid", "bad"])
def test_every_id_aria_describedby_names_is_in_the_group(data):
    form = _Hinted(data=data)
    for html in _groups(form):
        assert _dangling(html) == [], html
    if data == {}:      # hint and error both named, and both there
        group = form["hinted"].as_field_group()
        assert 'aria-describedby="id_hinted_helptext id_hinted_error"' in group
        assert 'id="id_hinted_helptext"' in group and 'id="id_hinted_error"' in group


def test_a_form_without_ids_names_nothing_and_gets_no_ids():
    form = _Hinted(data={}, auto_id=False)
    for html in _groups(form):
        assert "aria-describedby" not in html and 'id="_' not in html, html


def test_the_paragraph_group_keeps_a_hidden_hint_for_the_error_to_stand_beside():
    html = render_to_string("forms/field_paragraph.html", {"field": _Hinted(data={})["hinted"]})
    assert '<span class="help-text" id="id_hinted_helptext" hidden>A hint.</span>' in html
    assert _dangling(html) == []


@pytest.mark.django_db
@pytest.mark.parametrize(("path", "data"), [
    ("/accounts/password/reset/", {"email": "not an address"}),
    ("/accounts/signup/", {"username": "", "password1": "short", "password2": "other"}),
])
def test_a_refused_account_form_names_only_what_it_shows(client, path, data):
    html = client.post(path, data).content.decode()
    assert 'aria-invalid="true"' in html
    assert _dangling(html) == []


@pytest.mark.django_db
def test_the_pages_that_write_their_fields_out_name_only_what_they_show(client):
    from django.contrib.auth import get_user_model

    get_user_model().objects.create_user("tess", password="a-Long-and-unusual-passphrase-42")
    client.login(username="tess", password="a-Long-and-unusual-passphrase-42")
    profile = client.post("/accounts/profile/", {"email": "not an address"}).content.decode()
    imported = client.post("/decks/import/", {"text": "", "deck_format": "x" * 300}).content
    for html in (client.get("/accounts/profile/").content.decode(), profile,
                 client.get("/decks/import/").content.decode(), imported.decode()):
        assert "aria-describedby" in html
        assert _dangling(html) == []


@pytest.mark.django_db
def test_the_what_if_form_announces_a_refused_swap_out_and_a_missing_swap_in(client, alice,
                                                                             catalogue):
    from simulations.services import simulation_request
    from tests.simulations.helpers import DAWN, DUSK, play_all

    run = simulation_request(user=alice, deck_specs=[DAWN, DUSK], kind="match", games=4,
                             agent_a="greedy", agent_b="random", seed=4, chunk_size=4)
    play_all(run)
    client.force_login(alice)
    url = f"/simulations/{run.uid}/what-if/"
    other_decks = client.post(url, {"deck": "0", "card_out": "T-M09", "card_in": "T-M01"})
    none_in = client.post(url, {"deck": "0", "card_out": "T-M02"}).content.decode()
    refused = other_decks.content.decode()
    assert re.search(r'<select name="card_out" aria-invalid="true" '
                     r'aria-describedby="id_card_out_error" id="id_card_out">', refused)
    assert '<fieldset class="field has-error" aria-describedby="id_card_in_error">' in none_in
    for html in (refused, none_in, client.get(run.get_absolute_url()).content.decode()):
        assert 'aria-describedby="id_q_helptext' in html
        assert _dangling(html) == []


@pytest.mark.django_db
def test_the_tuning_picker_announces_why_it_refused_the_deck(client, alice, catalogue):
    client.force_login(alice)
    refused = client.post("/balance/tune/new/", {"deck": "x\x00"})
    html = refused.content.decode()
    assert refused.status_code == 400
    assert 'aria-invalid="true" aria-describedby="id_deck_error" id="id_deck"' in html
    assert "NUL character" in html and _dangling(html) == []


@pytest.mark.django_db
def test_the_collection_import_draws_its_fields_and_announces_a_refused_one(client, alice,
                                                                           catalogue):
    client.force_login(alice)
    page = client.get("/collection/import/").content.decode()
    for name in ("text", "file", "format"):
        assert f'<label for="id_{name}">' in page and f'id="id_{name}"' in page
    assert "<legend>The counts in the list</legend>" in page
    refused = client.post("/collection/import/", {"text": "2x Ember Pup", "format": "csv\x00"})
    html = refused.content.decode()
    assert refused.status_code == 400
    assert 'aria-invalid="true" aria-describedby="id_format_error" id="id_format"' in html
    assert _dangling(page) == [] and _dangling(html) == []


# --- no page writes a field's own label, hint or errors --------------------------------------

TEMPLATES = Path(__file__).resolve().parents[1] / "templates"
# A page's own field markup: a loop over one field's errors, or a field's label id or auto id
# (Django's ids for its label, hint and errors), written outside templates/forms/.
OWN_FIELD_MARKUP = re.compile(r"\{%\s*for\s+\w+\s+in\s+[\w.]+\.errors\s*%\}"
                              r"|\bid_for_label\b|\.auto_id\b")

def _own_field_markup() -> set[str]:
    return {str(path.relative_to(TEMPLATES)) for path in TEMPLATES.rglob("*.html")
            if path.parent.name != "forms" and OWN_FIELD_MARKUP.search(path.read_text())}


def test_the_pages_draw_their_fields_through_the_field_groups():
    """A page writes {{ field.as_field_group }} or includes forms/field.html or
    forms/field_paragraph.html: none writes a field's own label or errors."""
    assert _own_field_markup() == set()


def test_the_check_finds_a_page_that_writes_its_own_errors():
    for planted in ('{% for e in form.email.errors %}<span>{{ e }}</span>{% endfor %}',
                    '<label for="{{ form.email.id_for_label }}">',
                    '<span id="{{ field.auto_id }}_error">'):
        assert OWN_FIELD_MARKUP.search(planted), planted
    for fine in ('{% for e in form.non_field_errors %}', '{{ field.as_field_group }}',
                 '{% for field, errors in filter.errors.items %}'):
        assert not OWN_FIELD_MARKUP.search(fine), fine
