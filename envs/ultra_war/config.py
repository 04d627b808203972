"""Rule variants of Ultra War. Each key fills a gap the book leaves (see docs/games/ultra_war.md)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ultimata.envs.core.config import GameConfig


class UltraWarConfig(GameConfig):
    scenario: Literal["street_clash", "relay_hold", "rooftop_rescue"] = "street_clash"
    """Which scenario of data/scenarios.yaml is played (all original)."""
    first_player: Literal["roll", "player_0", "player_1"] = "roll"
    """Book: a Faction die roll decides; gap (ours): the winner always goes first."""
    initiative_mode: Literal["best_two", "sum"] = "best_two"
    """Gap (ours): with Initiative three dice are rolled; the best two count (or all three: 'sum')."""
    rounds: int | None = Field(None, ge=1, le=50)
    """Round cap override (gap, ours); None uses the scenario's `rounds`."""
    hand_limit: int = Field(5, ge=1, le=7)
    """Book: discard down to 5 at the discard event; opening hand 5."""
    army: Literal["scripted", "draft"] = "scripted"
    """Book, set-up step 2: each player chooses an army within the army total with at least one General.
    'scripted': the scenario's armies (ours); 'draft': chosen as decisions (player_0 first, then player_1)."""
    turned_characters_strike: bool = True
    """The book pulls both ways (docs/games/ultra_war.md, Engagement): True (v4), a turned character still makes
    free strikes, deals its critical die back and Strikes Back ("Stun, Stasis or Powered-Down status will
    disengage Characters"; Fogg "may turn to face Rayna without taking a Free Strike penalty"); False (v3's
    reading), it makes none ("Turned Characters cannot move, Attack or make Feats after being Turned")."""
    destroyed_source_points: Literal["kept", "lost"] = "kept"
    """Book: destroying an energy token makes "the owner's ability to generate Energy Reserve useless".
    'kept' (v4): it generates no more, and the points it stored still pay for cards; 'lost' (v3): they are
    lost with it."""
    power_start: Literal["empty", "scenario"] = "empty"
    """The book is in tension with itself (docs/games/ultra_war.md, Set-up step 4): 'empty' (v5), every power
    source starts with no points ("If the Reserve is a Power Source, it starts with no energy in its reserve,
    but builds like any other power source"); 'scenario' (v4), with the scenario's `power_start` points, so the
    opening-hand step's "you may utilize the reserve from your Power Sources" has points to pay with."""
