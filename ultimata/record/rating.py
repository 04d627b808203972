"""The person's openskill rating against each opponent of each game, kept up to date game by game.

Each opponent (a bot level such as `hard`, or any single bot spec) has its own pair of ratings, the
person's and the bot's, started at openskill's defaults. A game with several bot seats rates each seat as
a copy of the bot and moves the bot by their mean (as the arena does, training/ratings.py), so at a table
of four the person who wins a quarter of the games stays level with the bots."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence

from ultimata.training.ratings import Ratings

YOU, BOT = 0, 1


def update(conn: sqlite3.Connection, family: str, opponent: str, human: int, ending: str,
           returns: Sequence[float] | None, seats: int) -> None:
    """Rate one game in the caller's transaction: a finished game by its returns, a resigned one as a loss."""
    if ending == "resigned":
        returns = [-1.0 if s == human else 0.0 for s in range(seats)]
    if returns is None:
        return
    row = conn.execute("SELECT you_mu, you_sigma, bot_mu, bot_sigma, games, wins, draws, losses FROM ratings "
                       "WHERE family = ? AND opponent = ?", (family, opponent)).fetchone()
    ratings = Ratings(2)
    counts = [0, 0, 0, 0]
    if row is not None:
        you, bot = ratings.ratings
        you.mu, you.sigma, bot.mu, bot.sigma = row[:4]
        counts = list(row[4:])
    ratings.update([YOU if s == human else BOT for s in range(len(returns))], returns)
    best = max(returns)
    mine = returns[human]
    counts[0] += 1
    if mine < best:
        counts[3] += 1
    elif list(returns).count(best) > 1:
        counts[2] += 1
    else:
        counts[1] += 1
    you, bot = ratings.ratings
    conn.execute("INSERT OR REPLACE INTO ratings (family, opponent, you_mu, you_sigma, bot_mu, bot_sigma, games, "
                 "wins, draws, losses) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                 (family, opponent, you.mu, you.sigma, bot.mu, bot.sigma, *counts))


def rate_all(conn: sqlite3.Connection) -> None:
    """Recompute every rating from the recorded games, oldest first (a migration does this once)."""
    conn.execute("DELETE FROM ratings")
    columns = {row[1] for row in conn.execute("PRAGMA table_info(games)")}
    rated = " AND g.rated = 1" if "rated" in columns else ""  # a migration to v2 runs before v3 adds it
    rows = conn.execute(
        "SELECT g.family, g.opponent, g.human_seat, g.ending, g.returns, COUNT(s.seat) FROM games g "
        "JOIN seats s ON s.game_id = g.id WHERE g.outcome IS NOT NULL AND g.opponent IS NOT NULL "
        f"AND g.opponent != 'mixed'{rated} GROUP BY g.id ORDER BY g.ended_at, g.id").fetchall()
    for family, opponent, human, ending, returns, seats in rows:
        update(conn, family, opponent, human, ending, json.loads(returns) if returns else None, seats)
