"""The wall socket of the pty tests: which pty an emulated board is plugged into right now."""

from __future__ import annotations

from typing import Any

from eboard960.emulators.pty import FirmwareModel, PtyRunner

MISSING = "/dev/eboard960-not-plugged-in"


class Socket:
    """A cable that can be pulled and plugged in again; the model keeps its pieces meanwhile.

    Each `plug` opens a new pty; a host re-resolves `path()` the way it would a real port.
    """

    def __init__(self, model: FirmwareModel, **runner_options: Any) -> None:
        self.model = model
        self.runner_options = runner_options
        self.runner: PtyRunner | None = None

    def path(self) -> str:
        return self.runner.path if self.runner else MISSING

    async def plug(self) -> None:
        self.runner = PtyRunner(self.model, **self.runner_options)
        await self.runner.start()

    async def pull(self) -> None:
        if self.runner:
            await self.runner.stop()
        self.runner = None

    def send(self, data: bytes) -> None:
        if self.runner:  # a board whose cable is out talks to nobody
            self.runner.send(data)
