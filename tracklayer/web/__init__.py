"""The web app: games played over HTTP and in the browser (``tracklayer serve``).

``db`` stores a game as its settings and an append-only action log; ``service`` keeps each
live game in memory and applies actions through the engine before storing them; ``events``
fans accepted actions out to listeners (in memory, or through Redis between workers);
``api`` and ``pages`` are the HTTP routes; ``svg`` draws the map; ``app`` puts them together.
"""
