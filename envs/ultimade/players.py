"""How the eight players are called, by the rules' messages, the text, the pictures and the web view alike."""

TEAMS = "AB"
PLAYER_NAMES = tuple(f"{TEAMS[p >> 2]}{(p & 3) + 1}" for p in range(8))
"""Players 0..7: team t owns 4t..4t+3, called A1..A4 and B1..B4."""
