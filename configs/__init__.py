"""Data files: training configs, one YAML per game (configs/<game>.yaml), and mcts.yaml, the search
agent's per-game defaults. Loaded with importlib.resources."""
