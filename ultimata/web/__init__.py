"""`ultimata serve`: play against bots, watch bot matches and step through replays in the browser."""
