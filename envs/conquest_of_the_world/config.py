"""Rule variants of Conquest of the World. Each key fills a gap the book leaves (see
docs/games/conquest_of_the_world.md)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ultimata.envs.core.config import GameConfig


class ConquestConfig(GameConfig):
    num_players: int = Field(3, ge=2, le=6)
    """Book: 2 to 6 players."""
    one_homeland_per_zone: bool = False
    """Rule 3: the first player "selects any HOMELAND", so two homelands may share a zone (book);
    True forbids it (ours, an option)."""
    war_energy: int = Field(2500, ge=100, le=10_000)
    """Book rule 10B: 2500 on-screen energy units per war, for both sides."""
    endgame_energy_per_space: int = Field(100, ge=10, le=1000)
    """Book rule 21C: the end game's energy is the POWER BASE RECORD x 100."""
    homeland_siege: Literal["conquered", "held"] = "conquered"
    """Book rule 19A: every neighbour of a homeland must be conquered first ('conquered': a conquest or
    another player's homeland); 'held' also accepts a neighbour held as an ally."""
    homeland_siege_by: Literal["anyone", "attacker"] = "anyone"
    """Rule 19A/B, by whom: the book says "must first be conquered" and "once these countries are
    occupied", not by whom. 'anyone': a neighbour no longer shields once someone other than the homeland's
    owner holds it so (a neighbouring homeland counts), so no homeland is immune; 'attacker' (v2): only
    the attacker's player alliance, which makes two neighbouring homelands shield each other for good."""
    zone_bonus_once: bool = True
    """Gap (ours): the zone bonus is paid once per player and zone; False pays it again each time a
    zone becomes fully held after being lost."""
    player_alliances: bool = True
    """Book rule 18 (3+ players): propose / accept / break alliances between players."""
    alliance_battles: Literal["alternate", "declarer"] = "alternate"
    """Rule 18B: "the allied countries may alternate between themselves directing the attack": the
    battles of an allied attacker's war are directed by the allies in turn ('alternate', ours: the
    declarer first, then its allies clockwise); 'declarer' has the declaring player direct them all."""
    max_turns: int = Field(40, ge=1, le=500)
    """Variant 1 ("against the clock") as a cap on attack-option turns; gap (ours): when it is reached
    the chips go to the record and the end game is played, as when the board is filled."""
    target_record: int | None = Field(None, ge=1, le=500)
    """Variant 2: the first player to reach this many spaces on the POWER BASE RECORD wins at once."""
    end_game: bool = True
    """Book rule 21: play the end-game ladder; False ranks by the record after the chips are counted."""
    wooded_chance: int = Field(50, ge=0, le=100)
    """Gap (ours): percent chance that a battle field is wooded (tanks slowed by trees)."""
