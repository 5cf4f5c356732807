"""A UCI engine as the opponent, through python-chess (which sets UCI_Chess960 for Chess960 boards).

`--level` is Stockfish's "Skill Level" (0..20); other engines without that
option play at full strength. Each move gets a short fixed thinking time.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil

import chess
import chess.engine

from eboard960.play.errors import PlayError

ENGINE_DIRS = ("/usr/games", "/usr/local/games")
START_TIMEOUT = 10.0
"""Seconds a program has to answer `uci` with `uciok`. One that never does (an xboard-only engine, any other
program) would otherwise keep the game from starting, with nothing said."""


def find_engine(name: str) -> str:
    """The engine's executable: a path, a name on PATH, or one in the games directories."""
    if os.sep in name:
        if os.access(name, os.X_OK):
            return name
        raise PlayError(f"engine {name!r} is not an executable file")
    found = shutil.which(name) or shutil.which(name, path=os.pathsep.join(ENGINE_DIRS))
    if found is None:
        raise PlayError(f"no engine called {name!r} on PATH or in {', '.join(ENGINE_DIRS)}")
    return found


class EngineOpponent:
    """One running engine process; `choose` asks it for a move."""

    def __init__(self, engine: chess.engine.UciProtocol, limit: chess.engine.Limit) -> None:
        self.engine = engine
        self.limit = limit
        self.name = engine.id.get("name", "engine")

    @classmethod
    async def start(cls, path: str, *, level: int | None = None,
                    limit: chess.engine.Limit | None = None,
                    options: chess.engine.ConfigMapping | None = None) -> EngineOpponent:
        """Start the engine; `limit` per move defaults to 0.2 s, `options` are extra UCI options."""
        try:
            _transport, engine = await asyncio.wait_for(chess.engine.popen_uci(path), START_TIMEOUT)
        except TimeoutError:  # popen_uci closes the process it started
            raise PlayError(f"{path} did not answer as a UCI engine within {START_TIMEOUT:g} s") from None
        except (OSError, chess.engine.EngineError) as error:
            raise PlayError(f"cannot start the engine {path}: {error}") from None
        if level is not None:
            if "Skill Level" not in engine.options:
                await engine.quit()
                raise PlayError(f"{path} has no 'Skill Level' option for --level")
            option = engine.options["Skill Level"]
            if option.min is None or option.max is None:  # not a number from a range (a "spin" option)
                await engine.quit()
                raise PlayError(f"{path} has a 'Skill Level' option that is not a number for --level")
            if not option.min <= level <= option.max:
                await engine.quit()
                raise PlayError(f"--level must be {option.min}..{option.max} for this engine, not {level}")
            await engine.configure({"Skill Level": level})
        if options:
            await engine.configure(options)
        return cls(engine, limit or chess.engine.Limit(time=0.2))

    async def choose(self, board: chess.Board) -> chess.Move:
        result = await self.engine.play(board, self.limit)
        if result.move is None:
            raise PlayError("the engine resigned or had no move")
        return result.move

    async def close(self) -> None:
        with contextlib.suppress(chess.engine.EngineTerminatedError):
            await self.engine.quit()
