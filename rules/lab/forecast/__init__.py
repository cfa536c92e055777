"""The meta forecast: what a field of archetypes plays once players re-tune their lists.

Pure Python (no Django). ``forecast(problem, evaluator)`` returns a ``ForecastResult``;
``LocalPairEvaluator`` plays in this process or a process pool. See ``rounds`` for the method
and ``dynamics`` for how the meta moves between rounds.
"""

from rules.lab.forecast.play import LocalPairEvaluator, PairEvaluator, PairTask, play_pair_task
from rules.lab.forecast.problem import ForecastError, ForecastProblem
from rules.lab.forecast.result import ForecastResult
from rules.lab.forecast.rounds import forecast

__all__ = ["ForecastError", "ForecastProblem", "ForecastResult", "LocalPairEvaluator",
           "PairEvaluator", "PairTask", "forecast", "play_pair_task"]
