"""A game followed live: the server-sent events of a seat's state (``events``), the process's
one watcher of the games its streams wait on (``watch``), and the stream in the OpenAPI schema
(``schema``)."""
