"""What every game shares: the engine contract, the AEC adapter, registry, configs, RNG, replays."""
