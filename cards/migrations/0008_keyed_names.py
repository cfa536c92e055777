"""The catalogue's names in one keyed field instead of a column per language: ``name_en`` and
``name_zh`` become ``names`` (``{"en": …, "zh-hans": …}``, the codes of the site's
``LANGUAGES``), a game's ``description_en``/``description_zh`` become ``descriptions``. Every row
moves; empty texts are left out (a row without a Chinese name has no ``zh-hans`` key). The reverse
moves them back (a language other than English and Chinese has no column to go to).

The old columns that had no default get one first (an empty text), so that the reverse can add
them back to tables that have rows."""

import cards.models
from typing import Any

from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

# (model, field, the old columns' max length or None for text, whether the Chinese one was
# required): the keyed field is ``<field>s``.
MOVED = [
    ("card", "name", 120, True),
    ("cardkind", "name", 80, False),
    ("raritytier", "name", 80, False),
    ("cardset", "name", 120, False),
    ("faction", "name", 80, False),
    ("race", "name", 80, False),
    ("game", "name", 120, False),
    ("game", "description", None, False),
]
# The language codes of the old columns' suffixes, as they were when these columns existed.
COLUMNS = {"en": "en", "zh": "zh-hans"}
LABELS = {("name", "en"): "English name", ("name", "zh"): "Chinese name",
          ("description", "en"): "English description",
          ("description", "zh"): "Chinese description"}


def _old_column(field: str, suffix: str, length: int | None,
                chinese_required: bool) -> models.Field[Any, Any]:
    label = LABELS[(field, suffix)]
    if length is None:
        return models.TextField(blank=True, default="", verbose_name=label)
    blank = suffix != "en" and not chinese_required
    return models.CharField(max_length=length, blank=blank, default="", verbose_name=label)


def _keyed_field(field: str) -> models.JSONField[Any]:
    if field == "description":
        return models.JSONField(blank=True, default=dict, help_text="The description in each language, by the site's language code.", verbose_name="descriptions")
    return models.JSONField(default=dict, help_text='The name in each language, by the site\'s language code: {"en": "Ember Pup", "zh-hans": "余烬幼犬"}. English is required.', validators=[cards.models.names_in_languages], verbose_name="names")


def columns_to_keyed(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    for model_name, field, _, _ in MOVED:
        model = apps.get_model("cards", model_name)
        rows = list(model.objects.all())
        for row in rows:
            setattr(row, f"{field}s", {lang: getattr(row, f"{field}_{suffix}")
                                       for suffix, lang in COLUMNS.items()
                                       if getattr(row, f"{field}_{suffix}")})
        model.objects.bulk_update(rows, [f"{field}s"], batch_size=500)


def keyed_to_columns(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    for model_name, field, _, _ in MOVED:
        model = apps.get_model("cards", model_name)
        rows = list(model.objects.all())
        for row in rows:
            texts = getattr(row, f"{field}s") or {}
            for suffix, lang in COLUMNS.items():
                setattr(row, f"{field}_{suffix}", texts.get(lang, ""))
        model.objects.bulk_update(rows, [f"{field}_{suffix}" for suffix in COLUMNS],
                                  batch_size=500)


class Migration(migrations.Migration):

    dependencies = [
        ('cards', '0007_translated_field_labels'),
    ]

    operations = [
        *[migrations.AddField(model_name=model, name=f"{field}s", field=_keyed_field(field))
          for model, field, _, _ in MOVED],
        *[migrations.AlterField(model_name=model, name=f"{field}_{suffix}",
                                field=_old_column(field, suffix, length, chinese))
          for model, field, length, chinese in MOVED for suffix in COLUMNS],
        migrations.RunPython(columns_to_keyed, keyed_to_columns),
        *[migrations.RemoveField(model_name=model, name=f"{field}_{suffix}")
          for model, field, _, _ in MOVED for suffix in COLUMNS],
        migrations.AlterModelOptions(
            name='faction',
            options={'ordering': ['names__en'], 'verbose_name': 'faction', 'verbose_name_plural': 'factions'},
        ),
        migrations.AlterModelOptions(
            name='game',
            options={'ordering': ['-engine', 'names__en'], 'verbose_name': 'game', 'verbose_name_plural': 'games'},
        ),
        migrations.AlterModelOptions(
            name='race',
            options={'ordering': ['names__en'], 'verbose_name': 'race', 'verbose_name_plural': 'races'},
        ),
    ]
