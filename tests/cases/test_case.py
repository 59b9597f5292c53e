"""Case files: the schema, bug injection, and a one-line error for every malformed input."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from pytest_hwrepair.cases.case import inject
from pytest_hwrepair.cases.load import json_schema, load_case
from pytest_hwrepair.verdict import CaseError

from ..conftest import SUM_C, SUM_TOML, write_case


def broken(tmp_path: Path, toml: str, files: dict[str, str] | None = None) -> str:
    path = write_case(tmp_path, "sum", {"case.toml": toml, **(files if files is not None else {"sum.c": SUM_C})})
    with pytest.raises(CaseError) as info:
        load_case(path, strict=True)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(str(path))
    return message


def test_valid_case_loads_with_its_files(tmp_path: Path) -> None:
    case = load_case(write_case(tmp_path, "sum", {"case.toml": SUM_TOML, "sum.c": SUM_C}))
    assert [b.id for b in case.bugs] == ["MLU-01", "SHFT-01"]
    assert case.files["sum.c"] == SUM_C


def test_find_replace_injects_exactly_one_edit(tmp_path: Path) -> None:
    case = load_case(write_case(tmp_path, "sum", {"case.toml": SUM_TOML, "sum.c": SUM_C}))
    buggy = inject(case, case.bug("MLU-01"))
    assert "i < 9" in buggy and "i < 10" not in buggy
    assert buggy.replace("i < 9", "i < 10") == SUM_C


def test_toml_syntax_error_names_the_file(tmp_path: Path) -> None:
    assert "TOML syntax" in broken(tmp_path, SUM_TOML + "\n[[bug]\n")


@pytest.mark.parametrize("extra", ['\n[extra]\nt = {a = 1,\n b = 2,}\n', '\n[extra]\nesc = "\\e"\n'],
                         ids=["multi-line inline table", "escape \\e"])
def test_case_files_are_toml_1_0_whichever_parser_reads_them(tmp_path: Path, extra: str) -> None:
    # Python 3.11's tomllib reads TOML 1.0: what TOML 1.1 added is a syntax error.
    assert "TOML syntax" in broken(tmp_path, SUM_TOML + extra)


def test_unknown_field_is_an_error_under_strict(tmp_path: Path) -> None:
    message = broken(tmp_path, SUM_TOML.replace('title = "sum of 0..9"', 'title = "x"\ncolour = "red"'))
    assert "colour: unknown field" in message


def test_unknown_field_is_a_warning_otherwise(tmp_path: Path) -> None:
    path = write_case(tmp_path, "sum", {"case.toml": SUM_TOML.replace('note = "drops the last term"',
                                                                      'note = "x"\nseverity = 3'), "sum.c": SUM_C})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        load_case(path)
    assert any("[MLU-01] severity: unknown field" in str(w.message) for w in caught)


def test_missing_field_names_it(tmp_path: Path) -> None:
    assert "target: missing required field" in broken(tmp_path, SUM_TOML.replace('target = "sum.c"\n', ""))


def test_wrong_type_names_field_and_bug(tmp_path: Path) -> None:
    message = broken(tmp_path, SUM_TOML.replace('find = "i < 10"', "find = 10"))
    assert "[MLU-01] find:" in message and "string" in message


def test_snippet_not_found(tmp_path: Path) -> None:
    message = broken(tmp_path, SUM_TOML.replace('find = "i < 10"', 'find = "i <= 10"'))
    assert "[MLU-01] find: snippet not found in sum.c" in message


def test_ambiguous_snippet_asks_for_occurrence(tmp_path: Path) -> None:
    message = broken(tmp_path, SUM_TOML.replace('find = "i < 10"', 'find = "s"'))
    assert "[MLU-01] find: snippet occurs" in message and "occurrence" in message


def test_occurrence_selects_the_nth_match(tmp_path: Path) -> None:
    toml = SUM_TOML.replace('find = "i < 10"\nreplace = "i < 9"', 'find = "i"\nreplace = "j"\noccurrence = 99')
    assert "[MLU-01] occurrence: 99" in broken(tmp_path, toml)
    ok = SUM_TOML.replace('find = "i < 10"\nreplace = "i < 9"', 'find = "s != 45"\nreplace = "s != 44"\noccurrence = 2')
    case = load_case(write_case(tmp_path / "b", "sum", {"case.toml": ok, "sum.c": SUM_C}))
    assert inject(case, case.bug("MLU-01")).endswith("return s != 44;\n}\n")


def test_duplicate_bug_ids(tmp_path: Path) -> None:
    assert "[SHFT-01] id: duplicate bug id" in broken(tmp_path, SUM_TOML.replace('id = "MLU-01"', 'id = "SHFT-01"'))


def test_missing_source_file(tmp_path: Path) -> None:
    assert "sources: file 'sum.c' does not exist" in broken(tmp_path, SUM_TOML, files={})


def test_target_must_be_a_source(tmp_path: Path) -> None:
    assert "target: 'other.c' is not listed in sources" in broken(
        tmp_path, SUM_TOML.replace('target = "sum.c"', 'target = "other.c"'))


def test_bad_bug_type_for_hls(tmp_path: Path) -> None:
    message = broken(tmp_path, SUM_TOML.replace('type = "MLU"', 'type = "TYPO"'))
    assert "[MLU-01] type: 'TYPO' is not one of OOB, SHFT" in message


def test_bad_bug_id(tmp_path: Path) -> None:
    assert "id: 'mlu1' must look like TYPE-NN" in broken(tmp_path, SUM_TOML.replace('id = "MLU-01"', 'id = "mlu1"'))


def test_unknown_oracle_kind_lists_the_allowed(tmp_path: Path) -> None:
    message = broken(tmp_path, SUM_TOML.replace('kind = "exit-code"', 'kind = "rtl-sim"'))
    assert "oracle.kind: 'rtl-sim' is not one of exit-code, output-diff for domain hls" in message


def test_invalid_stdout_regex(tmp_path: Path) -> None:
    assert "stdout: invalid regex" in broken(tmp_path, SUM_TOML.replace("'mismatches = 0'", "'(unclosed'"))


def test_unsupported_schema_version(tmp_path: Path) -> None:
    assert "unsupported schema version 2" in broken(tmp_path, SUM_TOML.replace("schema = 1", "schema = 2"))


def test_edit_that_changes_nothing(tmp_path: Path) -> None:
    assert "replace: the edit changes nothing" in broken(tmp_path, SUM_TOML.replace('replace = "i < 9"',
                                                                                   'replace = "i < 10"'))


def test_source_outside_the_case_directory(tmp_path: Path) -> None:
    message = broken(tmp_path, SUM_TOML.replace('sources = ["sum.c"]', 'sources = ["sum.c", "../../x.c"]'))
    assert "points outside the case directory" in message


def test_json_schema_is_strict_and_names_the_fields() -> None:
    schema = json_schema()["$defs"]["CaseModel"]
    assert schema["additionalProperties"] is False
    assert {"schema", "id", "domain", "suite", "sources", "target", "oracle", "bug"} <= set(schema["properties"])
    assert "class" in json_schema()["$defs"]["Bug"]["properties"]
