"""The players: the agents' registry and each agent."""
