"""Every page that names keywords names a keyword registered before the site was imported, in
both languages: the card page, the query help, the query's reading, the replay text and the
vocabulary page. Run only with the toy keyword registered first (``-p tests.toy_keyword``), by
``tests/cards/test_new_keyword.py``; nothing here is collected in the ordinary suite."""

from __future__ import annotations

from html import unescape

import pytest
from django.utils import translation

from cards.models import Card
from cards.query import describe, parse
from simulations.replays.text import Describer
from tests.toy_keyword import TOY

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-Hans"}
LANGUAGES = [("en", EN, TOY.name_en), ("zh-hans", ZH, TOY.name("zh-hans"))]


@pytest.fixture
def lurker(test_set):
    """A minion of the test set that prints the toy keyword (saved through the model)."""
    card = Card.objects.filter(kind="minion").order_by("code").first()
    card.keywords = [*card.keywords, TOY.code]
    card.full_clean()
    card.save()
    return card


@pytest.mark.parametrize(("lang", "header", "name"), LANGUAGES)
def test_the_card_page_names_it(client, lurker, lang, header, name):
    html = client.get(lurker.get_absolute_url(), **header).content.decode()
    assert f'?keyword={TOY.code}">{name}</a>' in html
    assert (name + ("。" if lang != "en" else ".")) in html      # the generated rules text


@pytest.mark.parametrize(("lang", "header", "name"), LANGUAGES)
def test_the_query_help_lists_it_and_the_query_finds_it(client, lurker, lang, header, name):
    html = client.get("/cards/help/", **header).content.decode()
    listed = TOY.code if name.lower() == TOY.code else f"{TOY.code} ({name})"
    shown = html.replace("<code>", "").replace("</code>", "")   # a Chinese page sets codes apart
    assert listed in shown      # in the keyword field's line, beside the registry's others
    found = client.get(f"/cards/?q=kw:{name}", **header).content.decode()
    assert lurker.get_absolute_url() in found


@pytest.mark.parametrize(("lang", "header", "name"), LANGUAGES)
def test_the_query_reading_and_the_replay_text_name_it(lang, header, name):
    with translation.override(lang):
        assert name.lower() in describe(parse(f"kw:{TOY.code}"))
        sentence = Describer({"X-1": "Lurker"})({"t": "keyword_granted", "card": "X-1",
                                                 "keyword": TOY.code})
        assert name in sentence and TOY.code not in sentence


@pytest.mark.parametrize(("lang", "header", "name"), LANGUAGES)
def test_the_vocabulary_page_names_it_with_its_rule(client, db, lang, header, name):
    html = unescape(client.get("/cards/vocabulary/", **header).content.decode())
    assert f'id="keyword-{TOY.code}"' in html and TOY.rule in html
    assert name in html and TOY.localized_rule.text(lang[:2]) in html
