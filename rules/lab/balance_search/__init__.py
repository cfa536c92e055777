"""Balance search: the fewest, smallest card changes that bring a field's matchups near 50 %.

Pure Python (no Django). ``balance_search(problem, evaluator)`` returns a ``SearchResult``;
``LocalEvaluator`` plays in this process or a process pool, the site sends the same tasks to
Celery workers. See ``search`` for the method.
"""

from rules.lab.balance_search.evaluate import (
           BLOCK,
           EvalTask,
           Evaluator,
           Field,
           LocalEvaluator,
           Tally,
)
from rules.lab.balance_search.problem import Problem
from rules.lab.balance_search.result import Scored, SearchResult
from rules.lab.balance_search.search import balance_search
from rules.lab.balance_search.space import Move, SearchSpace, SpaceError, space_moves

__all__ = ["BLOCK", "EvalTask", "Evaluator", "Field", "LocalEvaluator", "Move", "Problem",
           "Scored", "SearchResult", "SearchSpace", "SpaceError", "Tally", "balance_search",
           "space_moves"]
