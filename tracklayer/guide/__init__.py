"""Guides to the titles, made from the engine's own data (``build.guide``), and
walkthroughs of real games narrated in plain English with the state after each step
(``walkthrough``)."""
