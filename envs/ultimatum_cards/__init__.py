"""The Ultimatum card game (seed 001): rules in state.py, the deck in deck.py."""
