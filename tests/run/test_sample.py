"""Sample keys made together (collection makes thousands) are the keys made one by one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_hwrepair.cases.load import load_case
from pytest_hwrepair.fixers import NoopFixer
from pytest_hwrepair.results.rundir import sample_key, sample_keys
from pytest_hwrepair.run.sample import ProtocolConfig, Sample
from pytest_hwrepair.verdict import RepairProtocol

from ..conftest import SUM_C, SUM_TOML, write_case

SCALARS = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text()
JSONISH = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner,
                                                                                            max_size=3), max_leaves=8)
DICTS = st.dictionaries(st.text(), JSONISH, max_size=4)


@settings(max_examples=200, deadline=None)
@given(digest=st.text(), bug=st.text(), oracle=DICTS, fixer=DICTS, protocol=DICTS,
       samples=st.lists(st.integers(min_value=0, max_value=10**6), max_size=5))
def test_keys_made_together_are_the_keys_made_one_by_one(digest: str, bug: str, oracle: dict[str, Any],
                                                          fixer: dict[str, Any], protocol: dict[str, Any],
                                                          samples: list[int]) -> None:
    parts = dict(case_digest=digest, bug=bug, oracle=oracle, fixer=fixer, protocol=protocol)
    assert sample_keys(**parts, samples=samples) == [sample_key(**parts, sample=n) for n in samples]


def test_make_all_gives_the_samples_make_gives(tmp_path: Path) -> None:
    write_case(tmp_path, "sum", {"case.toml": SUM_TOML, "sum.c": SUM_C})
    case = load_case(next(tmp_path.rglob("case.toml")))
    bug, fixer = case.bugs[0], NoopFixer()
    for protocol, config in ((RepairProtocol.REPEATED, ProtocolConfig()),
                             (RepairProtocol.ITERATIVE, ProtocolConfig(iterations=3))):
        together = Sample.make_all(case, bug, "noop", fixer, 4, protocol, config)
        alone = [Sample.make(case, bug, "noop", fixer, n, protocol, config) for n in range(4)]
        assert together == alone and len({s.key for s in together}) == 4
