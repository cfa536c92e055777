"""A format's Chinese name, ``name_zh``, moves into ``names`` (``{"zh-hans": …}``: its name in the
site's other languages, by language code; the English one stays ``name``). The reverse moves it
back; the column gets a default first so the reverse can add it to a table with rows."""

from typing import Any

from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

CHINESE = "zh-hans"   # the language of the old column, as the site's LANGUAGES spells it


def column_to_keyed(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Format = apps.get_model("decks", "Format")
    for fmt in Format.objects.exclude(name_zh=""):
        fmt.names = {CHINESE: fmt.name_zh}
        fmt.save(update_fields=["names"])


def keyed_to_column(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Format = apps.get_model("decks", "Format")
    for fmt in Format.objects.all():
        fmt.name_zh = (fmt.names or {}).get(CHINESE, "")
        fmt.save(update_fields=["name_zh"])


class Migration(migrations.Migration):

    dependencies = [
        ('decks', '0006_translated_field_labels'),
    ]

    operations = [
        migrations.AddField(
            model_name='format',
            name='names',
            field=models.JSONField(blank=True, default=dict, help_text='By the site\'s language code: {"zh-hans": "标准"}. The English name is the name above.', verbose_name='names in other languages'),
        ),
        migrations.AlterField(
            model_name='format',
            name='name_zh',
            field=models.CharField(blank=True, default='', max_length=80, verbose_name='Chinese name'),
        ),
        migrations.RunPython(column_to_keyed, keyed_to_column),
        migrations.RemoveField(
            model_name='format',
            name='name_zh',
        ),
    ]
