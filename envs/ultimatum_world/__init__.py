"""Ultimatum (Bates Games, 1985): the world wargame of troops, navies, jet bombers, lasers and cards."""
