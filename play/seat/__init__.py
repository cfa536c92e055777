"""What one seat of a game is shown: its state as the page and the API read it (``state``),
built from its view alone (``board``), its legal actions and the log in words (``action_words``,
``log_text``). Building a seat's state only reads: it schedules no work."""
