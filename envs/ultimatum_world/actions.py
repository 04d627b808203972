"""The fixed action layout (`NUM_ACTIONS` actions). A compound turn is a chain of small decisions by one player:
a verb (buy, play a card, attack, fire a laser, move ships), then the places it needs, then an amount.
Places are absolute: nations 0-36, then the sea places (blockades 1-14, then the 9 anchors)."""

from __future__ import annotations

from ultimata.envs.ultimatum_world.content import BOOK_ANCHORS, BOOK_BLOCKADES, CARD_KINDS

NATIONS = 37
BLOCKADES = BOOK_BLOCKADES
SEAS = BLOCKADES + BOOK_ANCHORS
"""Sea places: the blockades 1-14 (indexes 0-13), then the anchors."""
PLACES = NATIONS + SEAS
PLACE = 0
"""PLACE + i: nation i (i < 37) or sea place i - 37: a pick, a target, a source or where to put pieces."""
BUY_TROOPS_1 = PLACE + PLACES
BUY_TROOPS_5 = BUY_TROOPS_1 + 1
BUY_TROOPS_ALL = BUY_TROOPS_5 + 1
"""As many troops as the money you may spend on troops now buys (no more than your set of pieces has left)."""
BUY_BATTLESHIP = BUY_TROOPS_ALL + 1
BUY_SUBMARINE = BUY_BATTLESHIP + 1
BUY_LASER = BUY_SUBMARINE + 1
CARD = BUY_LASER + 1
"""CARD + k: play a card of kind CARD_KINDS[k]."""
ATTACK = CARD + len(CARD_KINDS)
"""A troop attack: then the nation it starts from, then the target."""
LASER = ATTACK + 1
"""Fire a laser: then its target (on your turn, or as a defender's counterattack)."""
MOVE_BATTLESHIPS = LASER + 1
MOVE_SUBMARINES = MOVE_BATTLESHIPS + 1
"""Then from, to, how many; in a naval battle: more vessels join it (from, how many)."""
ROLL = MOVE_SUBMARINES + 1
"""In a troop battle: one roll of the black dice."""
BLITZ = ROLL + 1
"""In a battle: roll until it is decided (a naval battle: submarines first, at battleships first)."""
STOP = BLITZ + 1
"""In a troop battle: stop attacking."""
AIM = STOP + 1
"""AIM + 2 * mine + theirs (0 battleship, 1 submarine): in a naval battle, announce which of your vessels
attacks which of theirs, and roll the green die."""
AMOUNT_ONE = AIM + 4
AMOUNT_HALF = AMOUNT_ONE + 1
AMOUNT_ALL = AMOUNT_HALF + 1
"""All the vessels or troops to place, or all the troops but the one that must stay behind."""
DONE = AMOUNT_ALL + 1
"""End the purchases, end the turn, or let an attack go on without (more) defence."""
NUM_ACTIONS = DONE + 1
BUY_TROOPS = {BUY_TROOPS_1: 1, BUY_TROOPS_5: 5}
AMOUNTS = (AMOUNT_ONE, AMOUNT_HALF, AMOUNT_ALL)
BATTLESHIP, SUBMARINE = 0, 1
