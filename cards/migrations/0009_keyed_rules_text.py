"""A card's generated rules text in one keyed field instead of a column per language:
``text_en`` and ``text_zh`` become ``texts`` (``{"en": …, "zh-hans": …}``, the codes of the
site's ``LANGUAGES``, for each language with a rules-text grammar). Every row moves; an empty
text is left out. The reverse moves them back."""

from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

# The language codes of the old columns' suffixes, as they were when these columns existed.
COLUMNS = {"en": "en", "zh": "zh-hans"}


def columns_to_keyed(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    card = apps.get_model("cards", "card")
    rows = list(card.objects.all())
    for row in rows:
        row.texts = {lang: getattr(row, f"text_{suffix}") for suffix, lang in COLUMNS.items()
                     if getattr(row, f"text_{suffix}")}
    card.objects.bulk_update(rows, ["texts"], batch_size=500)


def keyed_to_columns(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    card = apps.get_model("cards", "card")
    rows = list(card.objects.all())
    for row in rows:
        for suffix, lang in COLUMNS.items():
            setattr(row, f"text_{suffix}", (row.texts or {}).get(lang, ""))
    card.objects.bulk_update(rows, [f"text_{suffix}" for suffix in COLUMNS], batch_size=500)


class Migration(migrations.Migration):

    dependencies = [
        ("cards", "0008_keyed_names"),
    ]

    operations = [
        migrations.AddField(
            model_name="card", name="texts",
            field=models.JSONField(
                blank=True, default=dict, editable=False, verbose_name="rules text",
                help_text="Generated from the data in each language with a rules-text grammar, "
                          "by language code.")),
        migrations.RunPython(columns_to_keyed, keyed_to_columns),
        migrations.RemoveField(model_name="card", name="text_en"),
        migrations.RemoveField(model_name="card", name="text_zh"),
    ]
