"""Deck tuning: legal card swaps that raise a deck's win rate against a field.

Pure Python (no Django). ``tune_deck(problem, evaluator)`` returns a ``TuningResult``;
``LocalTuneEvaluator`` plays in this process or a process pool, the site plays the same tasks on
a Celery worker and keeps every block in the database. See ``search`` for the method.
"""

from rules.lab.deck_tuning.evaluate import (
    BLOCK,
    LocalTuneEvaluator,
    TuneEvaluator,
    TuneTask,
    opponent_seed,
    play_tune_task,
)
from rules.lab.deck_tuning.problem import (
    Candidate,
    DeckKey,
    Swap,
    TuneField,
    TuningError,
    TuningProblem,
)
from rules.lab.deck_tuning.result import Measured, Suggestion, TuningResult
from rules.lab.deck_tuning.search import tune_deck

__all__ = ["BLOCK", "Candidate", "DeckKey", "LocalTuneEvaluator", "Measured", "Suggestion",
           "Swap", "TuneEvaluator", "TuneField", "TuneTask", "TuningError", "TuningProblem",
           "TuningResult", "opponent_seed", "play_tune_task", "tune_deck"]
