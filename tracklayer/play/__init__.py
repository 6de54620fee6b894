"""Playing games: the check of the legal-move listing against recorded games, bots, self-play
and the terminal game (the top layer, beside the command line)."""
