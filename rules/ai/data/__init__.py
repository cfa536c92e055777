"""The learned evaluator's weights (``learned_value.json``, written by
``python -m rules.lab.learned_training``): data, read by ``rules.ai.value_model``."""
