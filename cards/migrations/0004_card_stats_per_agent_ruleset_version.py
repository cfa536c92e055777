"""Per-card simulated stats kept per agent, ruleset and card-data version (``CardStatsSlice``).

The totals recorded so far had none of those: each card's becomes one slice with them blank
("not recorded" on the card page), so no game is lost.
"""

import django.db.models.deletion
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps


COPIED = ("games_played_in", "times_played", "times_awakened", "wins_when_played", "updated_at")


def copy_totals(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    old, new = apps.get_model("cards", "CardStats"), apps.get_model("cards", "CardStatsSlice")
    new.objects.bulk_create(
        new(card_id=row.card_id, agent="", ruleset_key="", card_data_version="", ruleset={},
            **{name: getattr(row, name) for name in COPIED})
        for row in old.objects.all())


def copy_back(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    old, new = apps.get_model("cards", "CardStats"), apps.get_model("cards", "CardStatsSlice")
    totals: dict[int, dict[str, int]] = {}
    for row in new.objects.all():
        entry = totals.setdefault(row.card_id, dict.fromkeys(COPIED[:-1], 0))
        for name in COPIED[:-1]:
            entry[name] += getattr(row, name)
    old.objects.bulk_create(old(card_id=card, **counts) for card, counts in totals.items())


class Migration(migrations.Migration):

    dependencies = [
        ('cards', '0003_keyword_help_from_registry'),
    ]

    operations = [
        migrations.CreateModel(
            name='CardStatsSlice',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('agent', models.CharField(blank=True, max_length=20)),
                ('ruleset_key', models.CharField(blank=True, max_length=64)),
                ('ruleset', models.JSONField(blank=True, default=dict)),
                ('card_data_version', models.CharField(blank=True, max_length=64)),
                ('times_drawn', models.PositiveIntegerField(default=0)),
                ('times_played', models.PositiveIntegerField(default=0)),
                ('times_awakened', models.PositiveIntegerField(default=0)),
                ('games_drawn', models.PositiveIntegerField(default=0)),
                ('wins_when_drawn', models.PositiveIntegerField(default=0)),
                ('games_in_opening_hand', models.PositiveIntegerField(default=0)),
                ('wins_in_opening_hand', models.PositiveIntegerField(default=0)),
                ('games_played_in', models.PositiveIntegerField(default=0)),
                ('wins_when_played', models.PositiveIntegerField(default=0)),
                ('games_awakened', models.PositiveIntegerField(default=0)),
                ('wins_when_awakened', models.PositiveIntegerField(default=0)),
                ('moments', models.JSONField(blank=True, default=dict)),
                ('updated_at', models.DateTimeField(auto_now=True)),
                ('card', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='stat_slices', to='cards.card')),
            ],
            options={
                'verbose_name': 'card stats',
                'verbose_name_plural': 'card stats',
            },
        ),
        migrations.AddConstraint(
            model_name='cardstatsslice',
            constraint=models.UniqueConstraint(fields=('card', 'agent', 'ruleset_key', 'card_data_version'), name='cardstats_one_row_per_slice'),
        ),
        migrations.AddConstraint(
            model_name='cardstatsslice',
            constraint=models.CheckConstraint(condition=models.Q(('wins_when_drawn__lte', models.F('games_drawn'))), name='cardstats_wins_when_drawn_within_games'),
        ),
        migrations.AddConstraint(
            model_name='cardstatsslice',
            constraint=models.CheckConstraint(condition=models.Q(('wins_in_opening_hand__lte', models.F('games_in_opening_hand'))), name='cardstats_wins_in_opening_hand_within_games'),
        ),
        migrations.AddConstraint(
            model_name='cardstatsslice',
            constraint=models.CheckConstraint(condition=models.Q(('wins_when_played__lte', models.F('games_played_in'))), name='cardstats_wins_when_played_within_games'),
        ),
        migrations.AddConstraint(
            model_name='cardstatsslice',
            constraint=models.CheckConstraint(condition=models.Q(('wins_when_awakened__lte', models.F('games_awakened'))), name='cardstats_wins_when_awakened_within_games'),
        ),
        migrations.RunPython(copy_totals, copy_back),
        migrations.DeleteModel(
            name='CardStats',
        ),
    ]
