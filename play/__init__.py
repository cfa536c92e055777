"""Games a person plays in the browser, against an agent of the registry or both seats at once."""
