"""Games between two people: challenges, accepting with a checked deck, rematches (``services``),
their pages and API, and each player's record (``records``)."""
