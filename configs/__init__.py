"""Training configs, one YAML per game (configs/<game>.yaml), loaded with importlib.resources."""
