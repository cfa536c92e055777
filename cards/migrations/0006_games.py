"""Games in the catalogue: a game with its card kinds and rarity tiers; card sets belong to a
game (this site's own game, created here, takes every existing set); cards of other games
(``engine`` False) are free of the engine's kind and rarity constraints."""

import cards.models
import django.db.models.deletion
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps


# This site's own game with its kinds and rarity tiers (R1.4), frozen here as the migration
# writes them; every card set loaded before games existed belongs to it.
ENGINE_GAME = {"code": "cardlab", "name_en": "Cardlab", "name_zh": "卡牌实验室", "engine": True}
ENGINE_KINDS = [("hero", "Hero", "英雄"), ("minion", "Minion", "随从"), ("item", "Item", "道具")]
ENGINE_RARITIES = [("N", "N", "N"), ("R", "R", "R"), ("SR", "SR", "SR"), ("SSR", "SSR", "SSR"),
                   ("UR", "UR", "UR")]


def engine_game_create(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Game = apps.get_model("cards", "Game")
    game, _ = Game.objects.get_or_create(code=ENGINE_GAME["code"], defaults=ENGINE_GAME)
    for model, rows in (("CardKind", ENGINE_KINDS), ("RarityTier", ENGINE_RARITIES)):
        for order, (code, en, zh) in enumerate(rows):
            apps.get_model("cards", model).objects.get_or_create(
                game=game, code=code, defaults={"name_en": en, "name_zh": zh, "order": order})
    apps.get_model("cards", "CardSet").objects.filter(game__isnull=True).update(game=game)


class Migration(migrations.Migration):

    dependencies = [
        ('cards', '0005_card_stats_before_optional_skills'),
    ]

    operations = [
        migrations.CreateModel(
            name='CardKind',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('code', models.SlugField(max_length=16)),
                ('name_en', models.CharField(max_length=80, verbose_name='English name')),
                ('name_zh', models.CharField(blank=True, max_length=80, verbose_name='Chinese name')),
                ('order', models.PositiveSmallIntegerField(default=0)),
            ],
            options={
                'verbose_name': 'card kind',
                'verbose_name_plural': 'card kinds',
                'ordering': ['game', 'order', 'code'],
                'abstract': False,
                'default_related_name': 'kinds',
            },
            bases=(cards.models.TwoNames, models.Model),
        ),
        migrations.CreateModel(
            name='Game',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('code', models.SlugField(max_length=40, unique=True)),
                ('name_en', models.CharField(max_length=120, verbose_name='English name')),
                ('name_zh', models.CharField(blank=True, max_length=120, verbose_name='Chinese name')),
                ('engine', models.BooleanField(default=False, help_text="Only this site's own game is played by the engine and simulated.", verbose_name='played by the engine')),
                ('description_en', models.TextField(blank=True, verbose_name='English description')),
                ('description_zh', models.TextField(blank=True, verbose_name='Chinese description')),
            ],
            options={
                'verbose_name': 'game',
                'verbose_name_plural': 'games',
                'ordering': ['-engine', 'name_en'],
            },
            bases=(cards.models.TwoNames, models.Model),
        ),
        migrations.CreateModel(
            name='RarityTier',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('code', models.SlugField(max_length=16)),
                ('name_en', models.CharField(max_length=80, verbose_name='English name')),
                ('name_zh', models.CharField(blank=True, max_length=80, verbose_name='Chinese name')),
                ('order', models.PositiveSmallIntegerField(default=0)),
            ],
            options={
                'verbose_name': 'rarity tier',
                'verbose_name_plural': 'rarity tiers',
                'ordering': ['game', 'order', 'code'],
                'abstract': False,
                'default_related_name': 'rarities',
            },
            bases=(cards.models.TwoNames, models.Model),
        ),
        migrations.RemoveConstraint(
            model_name='card',
            name='card_kind_valid',
        ),
        migrations.RemoveConstraint(
            model_name='card',
            name='card_rarity_valid',
        ),
        migrations.RemoveConstraint(
            model_name='card',
            name='card_hero_shape',
        ),
        migrations.RemoveConstraint(
            model_name='card',
            name='card_minion_shape',
        ),
        migrations.RemoveConstraint(
            model_name='card',
            name='card_item_shape',
        ),
        migrations.AddField(
            model_name='card',
            name='engine',
            field=models.BooleanField(default=True, editable=False),
        ),
        migrations.AddField(
            model_name='cardset',
            name='sample',
            field=models.BooleanField(default=False, help_text='A small set made for tests, not a release.', verbose_name='sample data'),
        ),
        migrations.AlterField(
            model_name='card',
            name='kind',
            field=models.CharField(choices=[('hero', 'Hero'), ('minion', 'Minion'), ('item', 'Item')], max_length=16),
        ),
        migrations.AlterField(
            model_name='card',
            name='rarity',
            field=models.CharField(blank=True, choices=[('N', 'N'), ('R', 'R'), ('SR', 'SR'), ('SSR', 'SSR'), ('UR', 'UR')], default='N', max_length=16),
        ),
        migrations.AddConstraint(
            model_name='card',
            constraint=models.CheckConstraint(condition=models.Q(('engine', False), ('kind__in', ('hero', 'minion', 'item')), _connector='OR'), name='card_kind_valid'),
        ),
        migrations.AddConstraint(
            model_name='card',
            constraint=models.CheckConstraint(condition=models.Q(('engine', False), ('rarity__in', ('N', 'R', 'SR', 'SSR', 'UR')), _connector='OR'), name='card_rarity_valid'),
        ),
        migrations.AddConstraint(
            model_name='card',
            constraint=models.CheckConstraint(condition=models.Q(('engine', False), models.Q(('kind', 'hero'), _negated=True), models.Q(('hp__isnull', False), ('attribute__isnull', False), ('cost__isnull', True), ('attack__isnull', True)), _connector='OR'), name='card_hero_shape'),
        ),
        migrations.AddConstraint(
            model_name='card',
            constraint=models.CheckConstraint(condition=models.Q(('engine', False), models.Q(('kind', 'minion'), _negated=True), models.Q(('cost__isnull', False), ('attack__isnull', False), ('attribute__isnull', False), ('hp__isnull', True)), _connector='OR'), name='card_minion_shape'),
        ),
        migrations.AddConstraint(
            model_name='card',
            constraint=models.CheckConstraint(condition=models.Q(('engine', False), models.Q(('kind', 'item'), _negated=True), models.Q(('cost__isnull', False), ('hp__isnull', True), ('attack__isnull', True), ('attribute__isnull', True), ('faction__isnull', True), ('race__isnull', True)), _connector='OR'), name='card_item_shape'),
        ),
        migrations.AddField(
            model_name='cardkind',
            name='game',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, to='cards.game'),
        ),
        migrations.AddField(
            model_name='cardset',
            name='game',
            field=models.ForeignKey(blank=True, help_text="Empty: this site's own game.", null=True, on_delete=django.db.models.deletion.PROTECT, related_name='card_sets', to='cards.game', verbose_name='game'),
        ),
        migrations.AddField(
            model_name='raritytier',
            name='game',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, to='cards.game'),
        ),
        migrations.AddConstraint(
            model_name='cardkind',
            constraint=models.UniqueConstraint(fields=('game', 'code'), name='card_kind_unique_code'),
        ),
        migrations.AddConstraint(
            model_name='raritytier',
            constraint=models.UniqueConstraint(fields=('game', 'code'), name='rarity_tier_unique_code'),
        ),
        migrations.RunPython(engine_game_create, migrations.RunPython.noop),
    ]
