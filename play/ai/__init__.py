"""The AI's turn: an agent's moves written one by one (``turn``), worked out off the request
(``runner``), and the planner's hint for a person (``hint``)."""
