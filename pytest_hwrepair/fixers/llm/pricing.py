"""USD per million tokens by model, the cost of one response, and the run's cost ledger."""

from __future__ import annotations

import json
import os
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..base import FixerError, FixerUnavailable, Usage
from .cache import locked

BATCH_DISCOUNT = 0.5


@dataclass(frozen=True, slots=True)
class Price:
    input: float
    output: float
    cache_read: float = 0.0
    cache_write: float = 0.0

    def cost(self, usage: Usage, *, batch: bool = False) -> float:
        total = (usage.input * self.input + usage.output * self.output + usage.cache_read * self.cache_read
                 + usage.cache_write * self.cache_write) / 1_000_000
        return total * BATCH_DISCOUNT if batch else total


# List prices of the public APIs; a dated snapshot ("claude-sonnet-4-5-20250929") takes its family's price.
# Override or extend with --hwrepair-prices FILE when they change.
PRICES: dict[str, Price] = {
    "claude-opus-4-5": Price(5.0, 25.0, 0.50, 6.25),
    "claude-opus-4-1": Price(15.0, 75.0, 1.50, 18.75),
    "claude-opus-4": Price(15.0, 75.0, 1.50, 18.75),
    "claude-sonnet-4-5": Price(3.0, 15.0, 0.30, 3.75),
    "claude-sonnet-4": Price(3.0, 15.0, 0.30, 3.75),
    "claude-3-7-sonnet": Price(3.0, 15.0, 0.30, 3.75),
    "claude-haiku-4-5": Price(1.0, 5.0, 0.10, 1.25),
    "claude-3-5-haiku": Price(0.80, 4.0, 0.08, 1.0),
    "gpt-5": Price(1.25, 10.0, 0.125),
    "gpt-5-mini": Price(0.25, 2.0, 0.025),
    "gpt-5-nano": Price(0.05, 0.40, 0.005),
    "gpt-4.1": Price(2.0, 8.0, 0.50),
    "gpt-4.1-mini": Price(0.40, 1.60, 0.10),
    "gpt-4.1-nano": Price(0.10, 0.40, 0.025),
    "gpt-4o": Price(2.50, 10.0, 1.25),
    "gpt-4o-mini": Price(0.15, 0.60, 0.075),
    "o3": Price(2.0, 8.0, 0.50),
    "o4-mini": Price(1.10, 4.40, 0.275),
}


def find_price(model: str, path: str | None) -> Price | None:
    """The built-in prices under a user file's: the exact name, else the longest family prefix (a dated name)."""
    prices = {**PRICES, **(read_prices(Path(path)) if path else {})}
    name = model.rsplit("/", 1)[-1]
    for candidate in (model, name):
        if candidate in prices:
            return prices[candidate]
    families = [k for k in prices if name.startswith(k + "-")]
    return prices[max(families, key=len)] if families else None


def read_prices(path: Path) -> dict[str, Price]:
    """`{model: {input, output, cache_read, cache_write}}` in USD per million tokens, JSON or TOML."""
    where = f"--hwrepair-prices {path}"
    try:
        text = path.read_text(encoding="utf-8")
        data: Any = tomllib.loads(text) if path.suffix == ".toml" else json.loads(text)
    except OSError as exc:
        raise FixerError(f"{where}: cannot read: {exc.strerror}") from None
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as exc:
        raise FixerError(f"{where}: not valid {path.suffix.lstrip('.') or 'JSON'}: {exc}") from None
    if not isinstance(data, dict):
        raise FixerError(f"{where}: expected a table of models")
    out = {}
    for model, row in data.items():
        if not isinstance(row, dict) or not {"input", "output"} <= row.keys():
            raise FixerError(f"{where}: [{model}] needs input and output (USD per million tokens)")
        unknown = set(row) - {"input", "output", "cache_read", "cache_write"}
        if unknown:
            raise FixerError(f"{where}: [{model}] unknown field {sorted(unknown)[0]!r} "
                             "(allowed: input, output, cache_read, cache_write)")
        try:
            out[str(model)] = Price(**{k: float(v) for k, v in row.items()})
        except (TypeError, ValueError):
            raise FixerError(f"{where}: [{model}] prices must be numbers") from None
    return out


class CostLedger:
    """The run's spent USD, a total shared by every worker; once `limit` is reached no new request may start."""

    def __init__(self, run_dir: Path, limit: float | None) -> None:
        self.path = run_dir / "cost.json"
        self.limit = limit

    def check(self) -> None:
        """Raise FixerUnavailable when the limit is reached (a skip with that reason)."""
        if self.limit is None:
            return
        with locked(self.path) as fd:
            spent = _read(fd)
        if spent >= self.limit:
            raise FixerUnavailable(f"cost limit reached: ${spent:.4f} spent of ${self.limit:.4f} "
                                   "(--hwrepair-cost-limit); no new model requests are made")

    def add(self, usd: float) -> None:
        with locked(self.path) as fd:
            total = _read(fd) + usd
            os.lseek(fd, 0, os.SEEK_SET)
            os.ftruncate(fd, 0)
            os.write(fd, json.dumps({"cost_usd": round(total, 9)}).encode())


def _read(fd: int) -> float:
    data = os.pread(fd, os.fstat(fd).st_size, 0)
    try:
        return float(json.loads(data or b"{}").get("cost_usd", 0.0))
    except (json.JSONDecodeError, AttributeError, TypeError, ValueError):
        return 0.0
