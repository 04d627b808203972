"""Data files: training configs, one YAML per game (configs/<game>.yaml), and mcts.yaml, the search
agent's per-game default prior. Loaded with importlib.resources."""
