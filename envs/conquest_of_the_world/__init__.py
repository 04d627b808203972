"""Conquest of the World (Odyssey2 Master Strategy): power bases, alliances, wars and the end game."""
