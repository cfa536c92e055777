"""The learned evaluator: the chance one seat wins from the position it sees, by a small network.

A ``ValueModel`` is a one-hidden-layer perceptron (tanh units, a logistic output; no hidden
layer at all is logistic regression) over the standardised ``rules.ai.value_features``. Its
weights are data — ``rules/ai/data/learned_value.json``, written by the trainer
(``python -m rules.lab.learned_training``) — and inference is numpy alone: the site, the workers
and the tests need no training library. The file is read once per process (``shipped_model``).

The card set: a model records the codes of the cards it was trained on and their fingerprint.
Its features describe cards by their figures, never by code, so a patch that changes numbers or
abilities (the codes stay) changes what the model reads and nothing else; a card set that
shares too little with the trained one — another game's cards, a set with a new mechanic
throughout — is refused with ``MODEL_MISMATCH`` (``check_cards``), never played silently:
at least ``SHARED_SHARE`` of the trained cards must still be there and at most ``NEW_SHARE`` of
the set may be cards the model never met (a patch adding a few cards stays within both).

Invariant: ``value`` reads only the view it is given (``features``), so the value of a position
does not depend on anything the seat cannot see.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from rules.ai.value_features import FEATURES, features
from rules.engine.cards import CardDef
from rules.engine.view import PlayerView

SHIPPED_MODEL: Final = Path(__file__).resolve().parent / "data" / "learned_value.json"
SHARED_SHARE: Final = 0.9      # of the trained cards, at least this share still in the set
NEW_SHARE: Final = 0.1         # of the set's cards, at most this share new to the model
FORMAT: Final = 1
MODEL_MISMATCH: Final = (
    "the learned model {path} was trained on another card set (fingerprint {trained}, "
    "{trained_count} cards; this set {current}, {current_count} cards, {shared} shared, "
    "{new} new): retrain it with `python -m rules.lab.learned_training --set <card set>`")
MODEL_MISSING: Final = ("no learned model at {path}: train one with "
                        "`python -m rules.lab.learned_training`")
MODEL_FEATURES: Final = ("the learned model {path} reads features {found} but this code computes "
                         "{expected}: retrain it with `python -m rules.lab.learned_training`")

Floats = npt.NDArray[np.float64]


class ModelMismatch(ValueError):
    """A model that cannot be used here: another card set, other features, or no file."""


def card_codes(cards: Mapping[str, CardDef] | Iterable[CardDef]) -> list[str]:
    """The sorted codes of a card set's playable cards and heroes (what a model was trained on)."""
    values = cards.values() if isinstance(cards, Mapping) else cards
    return sorted(card.code for card in values)


def fingerprint(codes: Iterable[str]) -> str:
    """A short digest of a set of card codes: equal codes, equal fingerprint."""
    digest = hashlib.sha256("\n".join(sorted(codes)).encode("utf-8")).hexdigest()
    return digest[:16]


@dataclass
class ValueModel:
    mean: Floats
    scale: Floats
    hidden_weights: Floats        # features × hidden (empty second axis: logistic regression)
    hidden_bias: Floats
    out_weights: Floats           # hidden (or features, with no hidden layer)
    out_bias: float
    cards: list[str]              # the codes it was trained on
    meta: dict[str, Any] = field(default_factory=dict)   # seed, games, rounds, curve …
    path: str = "(in memory)"
    _checked: object = field(default=None, repr=False, compare=False)
    _folded: tuple[Floats, Floats] | None = field(default=None, repr=False, compare=False)

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.cards)

    # ------------------------------------------------------------------ inference
    def logits(self, rows: Floats) -> Floats:
        """The log-odds of winning of each row of raw features (a 2-D array)."""
        folded = self._folded
        if folded is None:    # the standardisation folded into the first layer, once
            weights = self.hidden_weights if self.hidden_weights.shape[1] else \
                self.out_weights[:, None]
            first = weights / self.scale[:, None]
            bias = (self.hidden_bias if self.hidden_weights.shape[1]
                    else np.array([self.out_bias])) - (self.mean / self.scale) @ weights
            folded = self._folded = (first, bias)
        x = rows @ folded[0] + folded[1]
        if not self.hidden_weights.shape[1]:
            out: Floats = x[:, 0]
            return out
        out = np.tanh(x) @ self.out_weights + self.out_bias
        return out

    def win_chances(self, rows: Floats) -> Floats:
        out: Floats = 1.0 / (1.0 + np.exp(-self.logits(rows)))
        return out

    def value(self, view: PlayerView) -> float:
        """The chance ``view.player`` wins from here (a decided game: 1, 0, or ½ drawn)."""
        return float(self.values([view])[0])

    def values(self, views: list[PlayerView]) -> Floats:
        """``value`` of each view, in one pass of the network."""
        rows = np.empty((len(views), len(FEATURES)))
        for i, view in enumerate(views):
            rows[i] = features(view)
        out = self.win_chances(rows)
        for i, view in enumerate(views):       # a decided game is what it is
            result = view.result
            if result is not None:
                winner = result.get("winner")
                out[i] = 0.5 if winner is None else (1.0 if winner == view.player else 0.0)
        return out

    # ------------------------------------------------------------------ the card set
    def check_cards(self, cards: Mapping[str, CardDef]) -> None:
        """Raise ``ModelMismatch`` unless this model may play with ``cards`` (see the module
        docstring); remembered for the last mapping checked (agents ask every decision)."""
        if self._checked is cards:
            return
        current = set(card_codes(cards))
        trained = set(self.cards)
        shared = len(current & trained)
        new = len(current - trained)
        if shared < SHARED_SHARE * len(trained) or new > NEW_SHARE * max(1, len(current)):
            raise ModelMismatch(MODEL_MISMATCH.format(
                path=self.path, trained=self.fingerprint, trained_count=len(trained),
                current=fingerprint(current), current_count=len(current), shared=shared,
                new=new))
        self._checked = cards

    # ------------------------------------------------------------------ the file
    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT, "features": list(FEATURES), "fingerprint": self.fingerprint,
            "cards": self.cards, "meta": self.meta,
            "mean": self.mean.tolist(), "scale": self.scale.tolist(),
            "hidden_weights": self.hidden_weights.tolist(),
            "hidden_bias": self.hidden_bias.tolist(),
            "out_weights": self.out_weights.tolist(), "out_bias": self.out_bias,
        }

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(_rounded(self.to_dict()), separators=(",", ":")) + "\n",
                        encoding="utf-8")


def _rounded(data: Any) -> Any:
    """Weights to 6 significant digits: a smaller file, the same play to the model's noise."""
    if isinstance(data, float):
        return float(f"{data:.6g}")
    if isinstance(data, list):
        return [_rounded(x) for x in data]
    if isinstance(data, dict):
        return {k: _rounded(v) for k, v in data.items()}
    return data


def model_from_dict(data: Mapping[str, Any], path: str = "(in memory)") -> ValueModel:
    if list(data.get("features", ())) != list(FEATURES):
        raise ModelMismatch(MODEL_FEATURES.format(path=path, found=len(data.get("features", ())),
                                                  expected=len(FEATURES)))
    size = len(FEATURES)
    hidden = np.asarray(data["hidden_weights"], dtype=np.float64).reshape(size, -1)
    return ValueModel(
        mean=np.asarray(data["mean"], dtype=np.float64),
        scale=np.asarray(data["scale"], dtype=np.float64),
        hidden_weights=hidden,
        hidden_bias=np.asarray(data["hidden_bias"], dtype=np.float64),
        out_weights=np.asarray(data["out_weights"], dtype=np.float64),
        out_bias=float(data["out_bias"]), cards=list(data["cards"]),
        meta=dict(data.get("meta", {})), path=path)


def load_model(path: Path) -> ValueModel:
    """A model from its file; ``ModelMismatch`` when there is none or it reads other features."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ModelMismatch(MODEL_MISSING.format(path=path)) from None
    return model_from_dict(json.loads(text), str(path))


@lru_cache(maxsize=4)
def shipped_model(path: Path = SHIPPED_MODEL) -> ValueModel:
    """The model in the repository, read once per process."""
    return load_model(path)
