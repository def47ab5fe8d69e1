"""A long match page costs per row no more than its own numbers and names: the sentences of
its rows are translated once per page, not once per row."""

from babel.support import Translations

from tests.conftest import match_key, new_match
from tichu_scorer import records


def add_hands(app, url, count):
    with app.test_request_context():
        for number in range(1, count + 1):  # a failed call a hand, by either team in turn
            first, second = number % 4, (number + 1) % 4
            calls = {str(second): "tichu"} | ({str(first): "tichu"} if number % 10 == 0
                                              else {})
            match = records.lock_match(match_key(url))
            hand, problems, _shown = records.add_hand(match, {
                "out_order": [first, second], "card_points": [50, None], "calls": calls},
                number)
            assert hand is not None, problems


def translations_for(client, url, monkeypatch):
    """Every message looked up in the catalogue while the page is made (templates, views
    and the core all end there)."""
    calls = []
    real = Translations.ugettext

    def counted(self, *args, **kwargs):
        calls.append(args[0])
        return real(self, *args, **kwargs)
    monkeypatch.setattr(Translations, "ugettext", counted)
    page = client.get(url, headers={"Accept-Language": "de"}).get_data(as_text=True)
    monkeypatch.setattr(Translations, "ugettext", real)
    assert calls
    return calls, page


def test_row_sentences_are_translated_once_per_page(app, client, monkeypatch):
    short = new_match(client, target="custom", custom="10000")
    long = new_match(client, ["E", "F", "G", "H"], target="custom", custom="10000")
    add_hands(app, short, 10)
    add_hands(app, long, 200)
    client.get("/", headers={"Accept-Language": "de"})  # the parts of every page, kept
    few, _ = translations_for(client, short, monkeypatch)
    many, page = translations_for(client, long, monkeypatch)
    assert len(many) == len(few), sorted(set(many) - set(few))
    assert "F zuerst draußen" in page and "G: Tichu ✓ geschafft" in page
    assert 'aria-label="Hand 200 bearbeiten"' in page
