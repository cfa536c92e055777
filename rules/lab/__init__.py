"""The balance lab: the match runner, its statistics and intervals, the meta, patches, searches,
tuning and the studies of the agents."""
