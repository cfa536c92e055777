"""Every form's field group is the project's templates/forms/field.html (FORM_RENDERER)."""
from django import forms


class _Form(forms.Form):
    name = forms.CharField(label="Name", help_text="A hint.")
    many = forms.MultipleChoiceField(label="Many", choices=[("a", "A")],
                                     widget=forms.CheckboxSelectMultiple)
    tick = forms.BooleanField(label="Tick", required=False)


def test_a_field_group_is_a_label_the_widget_its_hint_and_its_errors():
    html = _Form(data={})["name"].as_field_group()
    assert html.startswith('<div class="field has-error">')
    assert '<label for="id_name">Name</label>' in html
    assert '<span class="hint">A hint.</span>' in html
    assert '<span class="field-error" role="alert">This field is required.</span>' in html


def test_a_list_of_choices_is_a_labelled_group_and_a_tick_box_sits_in_its_label():
    form = _Form()
    many = form["many"].as_field_group()
    assert '<span class="label" id="many-label">Many</span>' in many
    assert '<div class="opponents" role="group" aria-labelledby="many-label">' in many
    tick = form["tick"].as_field_group()
    assert '<label class="check"><input type="checkbox" name="tick"' in tick
