"""Rule variants of Ultimatum. Each key fills a gap the book leaves or shortens the game for training
(see docs/games/ultimatum_world.md, where every key sits next to the rule it concerns)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ultimata.envs.core.config import GameConfig


class DiceFaces(BaseModel):
    """The faces of the three kinds of dice (the book's four dice: two black, one red, one green)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    black: list[int] = Field(min_length=1)
    red: list[int] = Field(min_length=1)
    green: list[Literal["WIN", "LOSE", "DRAW"]] = Field(min_length=1)


class WorldConfig(GameConfig):
    num_players: int = Field(4, ge=2, le=6)
    """Book: 2 to 6 players (2 players win with Oil plus two other alliances)."""
    max_rounds: int = Field(12, ge=1, le=1000)
    """Gap (ours): the game stops after this many rounds of turns and the tiebreak ranks the players
    (whole alliances held, then nations, then blockades, then money). The book plays until someone wins."""
    setup: Literal["book", "dealt"] = "book"
    """'book': the die order and the picks of the book (4 nations from 4 alliances, then one nation at a
    time, then 2 battleships per blockade). 'dealt' (ours, for quick training): the same holdings dealt at random."""
    dice: DiceFaces | None = None
    """Gap (ours): the dice faces; None uses data/rules.yaml."""
    cards: dict[str, int] | None = None
    """Gap (ours): the count of each card kind (the book has 72 cards); None uses data/rules.yaml."""
    turn_money_kept: bool = False
    """Gap (ours): conquest and embargo money must be spent the turn it is earned (book); what is left is
    lost (False) or saved to the bank (True)."""
