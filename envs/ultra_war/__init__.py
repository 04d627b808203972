"""Ultra War: the skirmish rules engine, content as validated data (see docs/games/ultra_war.md). The rules
are mixins by concept (turns, movement, attacks, cards, power, windows, draft, legal), composed in state.py,
whose docstring says how and why."""
