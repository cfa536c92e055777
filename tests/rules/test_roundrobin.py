"""The starter decks' round-robin prints the field's meta beside its matchup table."""

import json

from rules.lab.roundrobin import main

DECKS = ["Ember Rush", "Tidewall", "Gravecallers"]


def test_roundrobin_json_carries_the_meta(capsys):
    assert main(["--games", "20", "--agent", "random", "--decks", *DECKS, "--quiet",
                 "--resamples", "20", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    meta = out["meta"]
    assert meta["decks"] == DECKS
    assert abs(sum(meta["nash"]["shares"]) - 1) < 1e-9
    assert len(meta["relaxed"]["played"]) == 3 and meta["resamples"] == 20
    # each deck played 2 pairings × 20 games; its field rate is over all of them
    assert [rate["games"] for rate in meta["field_rates"]] == [40, 40, 40]
    for d, rate in enumerate(meta["field_rates"]):
        others = [out["rates"][d][o] for o in range(3) if o != d]
        assert abs(rate["rate"] - sum(others) / 2) < 1e-9


def test_roundrobin_table_reads_the_equilibria(capsys):
    main(["--games", "10", "--agent", "random", "--decks", *DECKS, "--quiet",
          "--resamples", "10"])
    text = capsys.readouterr().out
    assert "A field that adapts would play" in text
    assert "entropy ÷ log 3" in text
