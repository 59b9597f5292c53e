"""Reading a step's stdout and stderr pipes: to the end, on a thread, capped, cut per command of a batch."""

from __future__ import annotations

import threading
from typing import IO

from ..untrusted import with_marker


class Drain:
    """Reads a pipe to the end on a thread, keeping the first `cap` bytes; with `mark`, the stream is cut at
    each separator into one part per command of a batch, each part capped by itself."""

    def __init__(self, stream: IO[bytes] | None, cap: int, mark: bytes | None = None) -> None:
        assert stream is not None
        self.stream, self.cap, self.mark = stream, cap, mark
        self.parts: list[tuple[list[bytes], list[int]]] = [([], [0, 0])]  # chunks, [kept, dropped]
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        mark = self.mark
        pending = b""
        while chunk := self.stream.read1(1 << 16):  # type: ignore[attr-defined]
            if mark is None:
                self._keep(chunk)
                continue
            data = pending + chunk
            while (at := data.find(mark)) >= 0:
                self._keep(data[:at])
                self.parts.append(([], [0, 0]))
                data = data[at + len(mark):]
            cut = max(0, len(data) - (len(mark) - 1))  # a tail that could be the start of a separator waits
            self._keep(data[:cut])
            pending = data[cut:]
        self._keep(pending)
        self.stream.close()

    def _keep(self, data: bytes) -> None:
        chunks, counts = self.parts[-1]
        room = self.cap - counts[0]
        if room > 0 and data:
            chunks.append(data[:room])
            counts[0] += min(room, len(data))
        counts[1] += max(0, len(data) - max(room, 0))

    def join(self) -> None:
        self.thread.join()

    def text(self, part: int = 0) -> str:
        """The kept text of one part (the whole stream without a separator), with a marker when capped."""
        if part >= len(self.parts):
            return ""
        chunks, (_, dropped) = self.parts[part]
        return with_marker(b"".join(chunks), dropped)

    def part_dropped(self, part: int) -> int:
        return self.parts[part][1][1] if part < len(self.parts) else 0


__all__ = ["Drain"]
