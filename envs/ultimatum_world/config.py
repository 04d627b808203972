"""Rule variants of Ultimatum. Each key fills a gap the book leaves or shortens the game for training
(see docs/games/ultimatum_world.md, where every key sits next to the rule it concerns)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ultimata.envs.core.config import GameConfig
from ultimata.envs.ultimatum_world.content import BOOK_ALLIANCE_SIZES, BOOK_BLOCKADES

NATIONS = sum(BOOK_ALLIANCE_SIZES.values())


class DiceFaces(BaseModel):
    """The faces of the three kinds of dice (the book's four dice: two black, one red, one green)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    black: list[int] = Field(min_length=1)
    red: list[int] = Field(min_length=1)
    green: list[Literal["WIN", "LOSE", "DRAW"]] = Field(min_length=1)


class PieceSet(BaseModel):
    """One player's set of pieces, the most it can have in play at once. The defaults are the book's set:
    10 submarines, 26 battleships, 70 troop discs and 10 large discs, each 10 troops or a laser."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    troop_discs: int = Field(70, ge=0)
    large_discs: int = Field(10, ge=0)
    battleships: int = Field(26, ge=0)
    submarines: int = Field(10, ge=0)


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
    pieces: PieceSet | None = PieceSet()
    """Book: each player plays with one set of pieces (the default, the book's counts). None (ours):
    pieces are unlimited."""
    reaction_windows: Literal["always", "revealing"] = "always"
    """Book: defence cards are used 'any time ... when under an opponent's attack' and 'should not be
    revealed to opponents until being used'. 'always': before every roll the defender is asked whenever
    the table cannot rule out that it holds something usable (it holds any card while the attack allows
    a defence card, or a laser it may fire), with DONE as its pass, so being asked reveals nothing.
    'revealing' (ours, faster): asked only when it holds something usable, which tells the table that it
    does (v3's rule)."""
    turn_money_kept: bool = False
    """Gap (ours): conquest and embargo money must be spent the turn it is earned (book); what is left is
    lost (False) or saved to the bank (True)."""

    @model_validator(mode="after")
    def _set_holds_the_setup(self) -> WorldConfig:
        """The set-up gives a player up to 25 troops on its first four nations, 5 on each further one
        (ceil of the rest over the players) and 2 battleships a blockade: a set must hold that."""
        n, pieces = self.num_players, self.pieces
        if pieces is not None:
            troops = 25 + 5 * -(-(NATIONS - 4 * n) // n)
            battleships = 2 * -(-BOOK_BLOCKADES // n)
            if pieces.troop_discs + 10 * pieces.large_discs < troops or pieces.battleships < battleships:
                raise ValueError(
                    f"pieces: at {n} players the set-up can give a player {troops} troops (troop_discs + 10 x "
                    f"large_discs) and {battleships} battleships; the set holds "
                    f"{pieces.troop_discs + 10 * pieces.large_discs} and {pieces.battleships}"
                )
        return self
