"""A finished game in the replay viewer, as each reader may know it (``context``), and its page
(``views``)."""
