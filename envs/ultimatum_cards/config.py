"""Rule variants of the Ultimatum card game. Every default is the book's rule or our flagged gap choice
(see docs/games/ultimatum_cards.md)."""

from __future__ import annotations

from typing import Literal, TypeVar

from pydantic import Field, model_validator

from ultimata.envs.core.config import GameConfig
from ultimata.envs.ultimatum_cards.deck import DECK

RESERVE = 8
"""Cards left in the draw pile when 4 players are dealt 10 each; kept for 5-6 players (gap choice)."""
Count = TypeVar("Count")
"""An int (the rules engine) or a tensor of one per row (the array engine)."""


class UltimatumCardsConfig(GameConfig):
    num_players: int = Field(4, ge=3, le=6)
    mode: Literal["quick", "match", "point"] = "quick"
    """Quick Play: 1 round. Match Play: `match_rounds` rounds. Point Play: first to `target_score`."""
    match_rounds: int = Field(5, ge=1, le=100)
    target_score: int = Field(50, ge=1)
    max_rounds: int = Field(20, ge=1, le=100)
    """Point Play ends after this many rounds even if nobody reached the target (gap: a cap)."""
    starting_chips: int = Field(10, ge=1, le=100)
    hand_size: int | None = Field(None, ge=1, le=48)
    """None: 10 cards for 3-4 players; with 5-6, (48 - 8) // players so 8 cards stay to draw."""
    draw_count: int = Field(2, ge=0, le=10)
    blockers: Literal["target", "any"] = "target"
    """Who may block a Swap, Steal or Ultimatum: its target only (default), or any player in turn."""
    reaction_windows: Literal["always", "revealing"] = "always"
    """Who is asked in a Counter or Block window. "always" (default, the book's "all players other than the
    responder have the opportunity"): every eligible seat in turn, a seat holding none of the card may only
    pass, so being asked shows nothing. "revealing" (faster, fewer decisions): only seats holding the card
    are asked, so who is asked tells the table who holds one."""
    target_blocks_own_counter: bool = True
    """May the Ultimatum's target Block after the responder accepted the target's own counter? The book
    lets the target block once the responder has chosen, with no exception; false skips the target then."""
    give_to_self: bool = False
    """May a Give card's third player be the card's own player? The book says 'a third player'."""
    last_card_ends_round: bool = False
    """Book: play goes on 'until the first player has played all cards in their hand'. False (default): the
    round ends when a hand is empty after a play, so a last card Draw that names its own player refills the
    hand and the round goes on. True: playing the last card ends the round, whatever that Draw brings back."""
    chips_carry_over: bool = False
    """False: every round starts with fresh chips and adds its count to the score (gap choice)."""
    first_dealer: int | None = Field(None, ge=0)
    """Seat of the first dealer; None draws it at random from the game's seed."""

    @model_validator(mode="after")
    def _fits_the_deck(self) -> UltimatumCardsConfig:
        if self.cards_per_hand * self.num_players > len(DECK):
            raise ValueError(
                f"hand_size {self.cards_per_hand} x {self.num_players} players needs more than the "
                f"{len(DECK)} cards of the deck"
            )
        if self.first_dealer is not None and self.first_dealer >= self.num_players:
            raise ValueError(f"first_dealer must be a seat 0..{self.num_players - 1}")
        return self

    @property
    def cards_per_hand(self) -> int:
        if self.hand_size is not None:
            return self.hand_size
        return 10 if self.num_players <= 4 else (len(DECK) - RESERVE) // self.num_players


def most_rounds(cfg: UltimatumCardsConfig) -> int:
    """The rounds a game lasts at most under its mode: Quick Play 1, Match Play `match_rounds`, Point Play the
    cap `max_rounds`. The one place a mode's round limit is worked out; the rules, the observation, the checks,
    the table and the array engine read it here."""
    return {"quick": 1, "match": cfg.match_rounds, "point": cfg.max_rounds}[cfg.mode]


def last_round_played(cfg: UltimatumCardsConfig, rounds_played: Count, top_score: Count) -> Count:
    """Whether the game is over once `rounds_played` rounds are scored and the leader has `top_score`: the
    mode's limit is reached, or in Point Play the target too. Ints give a bool; the array engine's tensors
    (one entry per row) a bool tensor."""
    over = rounds_played >= most_rounds(cfg)
    return over | (top_score >= cfg.target_score) if cfg.mode == "point" else over
