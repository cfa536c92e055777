"""The turn clock of a game between people, kept by the server: what a move costs each seat
(``periods``), who is here (``presence``), and the clock enforced (``enforce``) through one door,
``keep.clock_keep``, which every read, stream and the watcher call."""
