"""Your record of games: every game played in the browser or the terminal, in one SQLite file
(`runs/ultimata.db` by default), with replays, results and your rating against each bot."""

from ultimata.record.store import Filters, GameRecord, RecordError

DEFAULT_PATH = "runs/ultimata.db"

__all__ = ["DEFAULT_PATH", "Filters", "GameRecord", "RecordError"]
