"""A small text progress bar for long command-line work (written to stderr)."""

from __future__ import annotations

import sys
import time
from types import TracebackType
from typing import TextIO


class Progress:
    """``with Progress(total, "matches") as bar: ... bar.advance()``."""

    def __init__(
        self, total: int, label: str, *, stream: TextIO | None = None, width: int = 30
    ) -> None:
        self.total = max(total, 1)
        self.label = label
        self.done = 0
        self.stream = stream if stream is not None else sys.stderr
        self.width = width
        self._start = time.perf_counter()
        self._shown = -1.0

    def __enter__(self) -> Progress:
        self._draw()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._draw(force=True)
        self.stream.write("\n")
        self.stream.flush()

    def advance(self, steps: int = 1) -> None:
        self.done = min(self.total, self.done + steps)
        self._draw()

    def _draw(self, *, force: bool = False) -> None:
        now = time.perf_counter()
        if not force and now - self._shown < 0.2 and self.done < self.total:
            return
        self._shown = now
        filled = self.width * self.done // self.total
        elapsed = now - self._start
        self.stream.write(
            f"\r{self.label} [{'#' * filled}{'.' * (self.width - filled)}] "
            f"{self.done}/{self.total} {elapsed:5.1f}s"
        )
        self.stream.flush()
