"""The local terminal table: a thin front end onto the game service."""
