"""A process that records card games into a record file in a loop, printing each game's name once its end
is committed: the kill -9 and two-writer tests run it. Usage: python -m tests.web.record_writer DB GAMES"""

from __future__ import annotations

import sys

from tests.web.record_games import CARDS, RULES, won_by
from ultimata.record import GameRecord


def main(path: str, games: int) -> None:
    record = GameRecord(path)
    players = ["human", "hard", "hard"]
    replay = won_by(0, players)
    for _ in range(games):
        game_id = record.start(CARDS, RULES, replay.seed, players, [None, "hard", "hard"], 0, "terminal")
        for n, action in enumerate(replay.actions, 1):
            record.move(game_id, n, action)
        print(record.finish(game_id, replay, "finished"), flush=True)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
