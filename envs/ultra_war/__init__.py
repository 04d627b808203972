"""Ultra War: the skirmish rules engine, content as validated data (see docs/games/ultra_war.md)."""
