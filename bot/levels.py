"""The computer players' levels, by name: what a lobby offers, a seat records and a hint
asks for, written once for every layer that names them (the players implement one class
per name, ``bot.players.computer_player``)."""

LEVELS = ("easy", "normal", "hard", "expert")
"""Weakest first: the lobby offers them in this order."""

HINT_LEVELS = ("normal", "hard")
"""Whose advice a member may ask for: the normal player's quick judgement (the default)
or the hard player's search over guessed deals."""
