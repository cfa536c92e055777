"""The site's form renderer: Django's widget templates, and one field group for every form.

``{{ field.as_field_group }}`` renders ``templates/forms/field.html`` (label, widget, hint,
errors), so the pages' forms stop repeating that markup. The renderer reads templates through
the ``TEMPLATES`` setting, so the project's ``templates/`` directory is searched first and
``django.forms`` (an installed app) supplies the widgets.
"""
from django.forms.renderers import TemplatesSetting


class FormRenderer(TemplatesSetting):
    field_template_name = "forms/field.html"
