"""Decks in piles: each entry is in a pile (``deck``, the main list, for every entry saved
before piles existed); versions keep the other piles; formats may belong to a game and carry
their rules as data."""

import django.db.models.deletion
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps


def entries_into_main_pile(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    """Every entry saved before piles existed is in the main pile, ``deck``."""
    apps.get_model("decks", "DeckEntry").objects.exclude(pile="deck").update(pile="deck")


class Migration(migrations.Migration):

    dependencies = [
        ('cards', '0006_games'),
        ('decks', '0003_translated_model_names'),
    ]

    operations = [
        migrations.AlterModelOptions(
            name='deckentry',
            options={'ordering': ['pile', 'card__code'], 'verbose_name': 'deck entry', 'verbose_name_plural': 'deck entries'},
        ),
        migrations.RemoveConstraint(
            model_name='deckentry',
            name='deck_entry_unique_card',
        ),
        migrations.AddField(
            model_name='deckentry',
            name='pile',
            field=models.SlugField(default='deck', max_length=40),
        ),
        migrations.AddField(
            model_name='deckversion',
            name='piles',
            field=models.JSONField(blank=True, default=dict, help_text='{pile: {card code: count}}: piles besides the main list'),
        ),
        migrations.AddField(
            model_name='format',
            name='game',
            field=models.ForeignKey(blank=True, help_text="Empty: this site's own game.", null=True, on_delete=django.db.models.deletion.PROTECT, related_name='formats', to='cards.game', verbose_name='game'),
        ),
        migrations.AddField(
            model_name='format',
            name='name_zh',
            field=models.CharField(blank=True, max_length=80, verbose_name='Chinese name'),
        ),
        migrations.AddField(
            model_name='format',
            name='rules',
            field=models.JSONField(blank=True, default=dict, help_text='Piles, copy limits and rule references (docs/formats.md). When it has piles, they replace the hero, size, kind and rarity fields above.', verbose_name='rules as data'),
        ),
        # Every existing entry goes to the main pile before the new unique constraint.
        migrations.RunPython(entries_into_main_pile, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name='deckentry',
            constraint=models.UniqueConstraint(fields=('deck', 'pile', 'card'), name='deck_entry_unique_card'),
        ),
    ]
