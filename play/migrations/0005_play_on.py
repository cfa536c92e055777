import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('play', '0003_playersettings_language'),
    ]

    operations = [
        migrations.AddField(
            model_name='playgame',
            name='start',
            field=models.JSONField(blank=True, default=dict, help_text='The position a game played on from a replay starts at; empty: it starts from its decks.', verbose_name='start'),
        ),
        migrations.AddField(
            model_name='playgame',
            name='played_on_from',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='played_on', to='play.playgame', verbose_name='played on from'),
        ),
        migrations.AddField(
            model_name='playgame',
            name='played_on_step',
            field=models.PositiveIntegerField(blank=True, null=True, verbose_name='played on from step'),
        ),
    ]
