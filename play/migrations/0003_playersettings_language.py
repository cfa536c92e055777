from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('play', '0002_friends'),
    ]

    operations = [
        migrations.AddField(
            model_name='playersettings',
            name='language',
            field=models.CharField(blank=True, default='', max_length=16, verbose_name='language of e-mails'),
        ),
    ]
