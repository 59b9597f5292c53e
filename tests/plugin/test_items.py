"""Collection: what `-k` selects on, the node ids samples carry, and the cyclic collector around collection."""

from __future__ import annotations

import gc

import pytest

from ..conftest import SUM_C, SUM_TOML, write_case

# A case whose words are not in its path: the design id is not the folder's name, the suite is not the suite
# folder's, and no bug id holds its bug type.
ODD_TOML = (SUM_TOML.replace('id = "sum"', 'id = "adder"').replace('suite = "demo"', 'suite = "tiny"')
            .replace('id = "MLU-01"', 'id = "B-01"').replace('id = "SHFT-01"', 'id = "B-02"\nclass = "syntactic"'))


@pytest.fixture
def odd(pytester: pytest.Pytester) -> pytest.Pytester:
    write_case(pytester.path, "sumdir", {"case.toml": ODD_TOML, "sum.c": SUM_C}, suite="folder")
    return pytester


def collected(pt: pytest.Pytester, *args: str) -> list[str]:
    result = pt.runpytest_subprocess("-p", "no:cacheprovider", "-p", "no:randomly", "cases", "--collect-only", "-q",
                                     "--fixer", "noop", *args)
    return sorted(line.split("::")[1] for line in result.stdout.lines if "::" in line)


@pytest.mark.parametrize(("words", "expected"), [
    ("MLU", ["B-01[noop-s0]"]), ("SHFT", ["B-02[noop-s0]"]), ("adder", ["B-01[noop-s0]", "B-02[noop-s0]"]),
    ("tiny", ["B-01[noop-s0]", "B-02[noop-s0]"]), ("hls and not MLU", ["B-02[noop-s0]"]),
    ("syntactic", ["B-02[noop-s0]"]), ("repeated", ["B-01[noop-s0]", "B-02[noop-s0]"]),
    ("noop and B-01", ["B-01[noop-s0]"]),
    ("iterative", []), ("INF", [])])
def test_k_selects_by_the_case_and_bug_words_even_where_the_path_does_not_hold_them(
        odd: pytest.Pytester, words: str, expected: list[str]) -> None:
    """DESIGN §4: domain, suite, design id, bug type and fixer name are keywords (pytest's `-k` reads node names,
    marker names and extra keywords, not an item's `keywords`)."""
    assert collected(odd, "-k", words) == expected


PROBE = """
import pytest
from pytest_hwrepair.items import SAMPLE_KEY

@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session):
    for item in session.items:
        if item.stash[SAMPLE_KEY].nodeid != item.nodeid:
            print(f"probe: {item.nodeid} carries {item.stash[SAMPLE_KEY].nodeid}")
"""


def test_every_sample_carries_its_items_node_id(odd: pytest.Pytester) -> None:
    odd.makeconftest(PROBE)
    result = odd.runpytest_subprocess("-p", "no:cacheprovider", "-p", "no:randomly", "cases", "--collect-only",
                                      "-q", "-s", "--fixer", "noop", "--hwrepair-samples", "2")
    assert result.ret == 0
    assert not [line for line in result.stdout.lines if line.startswith("probe:")]


def test_an_in_process_run_gives_back_the_collector_as_it_found_it(odd: pytest.Pytester) -> None:
    """A run inside another process (pytester, an IDE) must not leave its objects frozen or the collector off."""
    was = gc.isenabled()
    gc.unfreeze()
    result = odd.runpytest_inprocess("-p", "no:cacheprovider", "-p", "no:randomly", "cases", "--collect-only", "-q",
                                     "--fixer", "noop")
    assert result.ret == 0
    assert gc.get_freeze_count() == 0 and gc.isenabled() == was
