"""The documentation stays true: a README of one screen whose every command is run here, and a site that builds
with warnings as errors.

The README's commands are read from its code blocks and run as written, from a scratch directory whose
`cases` is the repository's, with a loopback fake where a network is needed. Where a command as written would
run for minutes, the test adds arguments that narrow it to a few bugs and says so where it does.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from importlib.metadata import PackageNotFoundError, distribution
from pathlib import Path

import pytest

from pytest_hwrepair.cases.case import find_case_files
from pytest_hwrepair.cases.load import load_case

from ..fake_llm_server import FakeLLM, reference_answer

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
MAX_README_LINES = 150
SHELL_BLOCKS = ("", "sh", "bash", "console", "shell")


def sections(text: str) -> dict[str, str]:
    """The README's `## ` sections by title, each with its text up to the next one."""
    parts = re.split(r"^## +(.+)$", text, flags=re.MULTILINE)
    return {title.strip(): body for title, body in zip(parts[1::2], parts[2::2])}


def commands(text: str) -> list[list[str]]:
    """Every command of the shell code blocks in `text`: continuation lines joined, comments dropped, as words."""
    found = []
    for lang, block in re.findall(r"^```(\w*)\n(.*?)^```", text, flags=re.MULTILINE | re.DOTALL):
        if lang not in SHELL_BLOCKS:
            continue
        for line in block.replace("\\\n", " ").splitlines():
            words = shlex.split(line, comments=True)
            if words:
                found.append(words)
    return found


def split_env(words: list[str]) -> tuple[dict[str, str], list[str]]:
    """A command's leading NAME=value words (the environment a shell gives it), and the command."""
    env: dict[str, str] = {}
    while words and re.match(r"^[A-Z_][A-Z0-9_]*=", words[0]):
        name, _, value = words[0].partition("=")
        env[name] = value
        words = words[1:]
    return env, words


def kind(words: list[str]) -> str | None:
    """Which test below runs a README command (None: no test does)."""
    _, program = split_env(words)
    if program in (["./dev", "eval"], ["./dev", "test"]):
        return "quick start"
    if program[:2] == ["hwrepair", "report"]:
        return "model report"
    if program[:1] != ["pytest"]:
        return None
    if "--fixer=claude" in program:
        return "model"
    if any(w.startswith("--fixer=cmd:") for w in program):
        return "agent"
    if "-k" in program:
        return "subset"
    return None


def readme_commands(of_kind: str) -> list[list[str]]:
    found = [words for words in commands(README.read_text(encoding="utf-8")) if kind(words) == of_kind]
    assert found, f"the README shows no {of_kind} command"
    return found


# --- the README ------------------------------------------------------------------------------------------------


def test_the_readme_fits_on_one_screen() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= MAX_README_LINES, f"README.md has {len(lines)} lines; the rest belongs in docs/"


def test_the_quick_start_is_exactly_two_commands() -> None:
    quick = sections(README.read_text(encoding="utf-8"))["Quick start"]
    assert commands(quick) == [["./dev", "eval"], ["./dev", "test"]]


def test_every_readme_command_is_run_by_a_test_here() -> None:
    shown = commands(README.read_text(encoding="utf-8"))
    unrun = [shlex.join(words) for words in shown if kind(words) is None]
    assert not unrun, f"README commands no test runs (add them to tests/project/test_docs.py): {unrun}"
    assert {kind(words) for words in shown} == {"quick start", "model", "model report", "agent", "subset"}


def test_the_readme_links_only_to_pages_that_exist() -> None:
    links = re.findall(r"\]\((docs/[^)#]+)(?:#[^)]*)?\)", README.read_text(encoding="utf-8"))
    assert links and all((ROOT / link).is_file() for link in links), links
    pages = {p.name for p in (ROOT / "docs").glob("*.md")}
    assert pages <= {Path(link).name for link in links}, "every docs page is linked from the README"


# --- the site --------------------------------------------------------------------------------------------------


def test_the_site_builds_without_a_warning(tmp_path: Path) -> None:
    if importlib.util.find_spec("mkdocs") is None:
        pytest.skip("mkdocs is not installed (it comes with the dev extra: pip install -e '.[dev]')")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
                          cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0 and "WARNING" not in done.stderr, done.stderr
    assert (tmp_path / "site" / "index.html").is_file() and (tmp_path / "site" / "performance" / "index.html").is_file()


def test_dev_docs_builds_the_site_strictly() -> None:
    dev = (ROOT / "dev").read_text(encoding="utf-8")
    assert re.search(r'^\s*exec "\$VENV/bin/mkdocs" build --strict ', dev, flags=re.MULTILINE)


# --- the quick start: CI runs both commands; ./dev eval's command line is the documented one ------------------


def ci_steps() -> list[str]:
    return [line.split("#")[0].strip() for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()]


def test_ci_runs_the_test_suite_and_builds_the_docs_first() -> None:
    steps = ci_steps()
    assert "./dev test" in steps and "./dev docs" in steps
    assert steps.index("./dev docs") < steps.index("./dev test")


def eval_argv() -> list[str]:
    """The pytest arguments `./dev eval` runs, its variables filled in as the documentation names them."""
    dev = (ROOT / "dev").read_text(encoding="utf-8")
    fixer = re.search(r'^EVAL_FIXER="([^"]+)"', dev, flags=re.MULTILINE)
    call = re.search(r'"\$VENV/bin/pytest" ("\$\{selection\[@\]\}".*?) "\$@" \|\| status=\$\?', dev, flags=re.DOTALL)
    assert fixer and call, "./dev eval: the pytest call is not where this test looks"
    words = shlex.split(call.group(1).replace("\\\n", " "), posix=False)
    names = {'"${selection[@]}"': "BUGS", '"$run_dir"': "RUN_DIR"}
    return [names.get(w, w).replace('"$EVAL_FIXER"', fixer.group(1)) for w in words]


def test_dev_eval_runs_the_command_line_the_docs_give() -> None:
    documented = [words for words in commands((ROOT / "docs" / "development.md").read_text(encoding="utf-8"))
                  if words[:2] == ["pytest", "BUGS"]]
    assert documented == [["pytest", *eval_argv()]]


@pytest.mark.slow
def test_dev_eval_command_line_repairs_and_reports(workdir: Path) -> None:
    bugs = [line.strip() for line in (ROOT / "scripts" / "eval_selection.txt").read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")]
    argv = [a for w in eval_argv() for a in (bugs if w == "BUGS" else ["run"] if w == "RUN_DIR" else [w])]
    # Narrowed to one RTL bug of the selection (-k): the whole selection takes about 10 minutes.
    case_file, bug = next(b for b in bugs if "/rtl/" in b).split("::")
    done = run(workdir, ["pytest", *argv], "-k", f"{Path(case_file).parent.name} and {bug}")
    assert done.returncode in (0, 1), done.stdout[-3000:] + done.stderr[-2000:]  # 1: the search did not repair it
    records = records_of(workdir / "run")
    assert [r["bug"] for r in records] == [bug] and str(records[0]["fixer"]).startswith("search")
    table = subprocess.run([sys.executable, "-m", "pytest_hwrepair.report.repair_table", "run"], cwd=workdir,
                           env=env_of(), capture_output=True, text=True, timeout=120, check=False)
    assert table.returncode == 0 and "pass@1" in table.stdout, table.stdout + table.stderr


# --- running a README command ----------------------------------------------------------------------------------


def env_of(**extra: str) -> dict[str, str]:
    """This environment, this checkout's package first, and nothing that points a model fixer elsewhere."""
    env = {k: v for k, v in os.environ.items() if not k.endswith(("_BASE_URL", "_API_KEY"))}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [env.get("PYTHONPATH")])])
    return {**env, **extra}


def plugin_args() -> list[str]:
    """A checkout that is not installed has no entry point: the plugin is named (the root conftest does it there)."""
    try:
        distribution("pytest-hwrepair")
    except PackageNotFoundError:
        return ["-p", "pytest_hwrepair.plugin"]
    return []


def run(cwd: Path, words: list[str], *extra: str, env: dict[str, str] | None = None,
        timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """A README command as a shell would run it: leading NAME=value words set the environment; `pytest` and
    `hwrepair` are this interpreter's. `env` is what a test's fake adds (a base URL)."""
    assigned, words = split_env(words)
    program = {"pytest": [sys.executable, "-m", "pytest", *plugin_args()],
               "hwrepair": [sys.executable, "-m", "pytest_hwrepair.cli"]}[words[0]]
    return subprocess.run([*program, *words[1:], *extra], cwd=cwd, env=env_of(**assigned, **(env or {})),
                          capture_output=True, text=True, timeout=timeout, check=False)


def option(words: list[str], name: str) -> str:
    """The value a command gives an option, as `NAME VALUE` or `NAME=VALUE`."""
    for i, word in enumerate(words):
        if word == name:
            return words[i + 1]
        if word.startswith(name + "="):
            return word.split("=", 1)[1]
    raise AssertionError(f"{shlex.join(words)}: no {name}")


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    """Where a user runs the README's commands: a directory whose `cases` is this repository's."""
    (tmp_path / "cases").symlink_to(ROOT / "cases", target_is_directory=True)
    return tmp_path


def records_of(run_dir: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in (run_dir / "samples.jsonl").read_text().splitlines()]


# --- a model evaluation ----------------------------------------------------------------------------------------

MODEL_BUG = ("hls/poly/atax", "INIT-01")


@pytest.fixture
def fake_claude() -> Iterator[FakeLLM]:
    """The Anthropic API on loopback, answering with the reference fix of the bug in the prompt."""
    with FakeLLM(reference_answer(ROOT / "cases" / MODEL_BUG[0])) as fake:
        yield fake


@pytest.mark.slow  # four xdist workers, as the command says, each collecting the HLS suites
def test_the_model_evaluation_runs_and_reports(workdir: Path, fake_claude: FakeLLM) -> None:
    (evaluate,), (report,) = readme_commands("model"), readme_commands("model report")
    # Narrowed to one bug (-k): the command as written asks the model for 346 bugs x 5 samples.
    design, bug = MODEL_BUG
    done = run(workdir, evaluate, "-k", f"{Path(design).name} and {bug}", env={"ANTHROPIC_BASE_URL": fake_claude.url})
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    records = records_of(workdir / option(evaluate, "--hwrepair-run"))
    assert len(records) == 5 and {r["outcome"] for r in records} == {"passed"}
    assert {r["fixer"] for r in records} == {"claude:claude-sonnet-4-5"}
    assert len(fake_claude.model_requests()) == 5  # five samples, five requests: never collapsed into one

    shown = run(workdir, report)
    assert shown.returncode == 0, shown.stdout[-3000:] + shown.stderr[-2000:]
    html = workdir / option(report, "--out")
    assert option(report, "--format") == "html" and "pass@1" in html.read_text(encoding="utf-8")


# --- an in-house agent in CI -----------------------------------------------------------------------------------

AGENT_BUGS = (("hls/poly/atax", "INIT-01"), ("rtl/seq/lfsr16", "CONST-01"))
AGENT = """\
import argparse
import hashlib
import json
from pathlib import Path

# A stand-in for an in-house agent: it knows the fixes of a few bugs by the hash of the buggy file.
parser = argparse.ArgumentParser()
parser.add_argument("--task", required=True)
task = json.loads(Path(parser.parse_args().task).read_text())
buggy = task["files"][task["target"]]
fixes = json.loads((Path(__file__).parent / "fixes.json").read_text())
fix = fixes.get(hashlib.sha256(buggy.encode()).hexdigest())
if fix is not None:
    (Path(task["workspace"]) / task["target"]).write_text(fix)
print("fixed" if fix is not None else "no fix known", task["bug"], "in", task["workspace"])
"""


@pytest.fixture
def agent_home() -> Iterator[Path]:
    """The agent's own folder (its code and data), readable by the unprivileged uid the agent runs under."""
    path = Path(tempfile.mkdtemp(prefix="hwrepair-docs-agent-", dir="/tmp"))
    path.chmod(0o755)
    fixes = {}
    for design, _ in AGENT_BUGS:
        for case_file in find_case_files([ROOT / "cases" / design]):
            case = load_case(case_file)
            for bug in case.bugs:
                buggy = case.buggy_files(bug)[case.target]
                fixes[hashlib.sha256(buggy.encode()).hexdigest()] = case.files[case.target]
    (path / "run.py").write_text(AGENT)
    (path / "fixes.json").write_text(json.dumps(fixes))
    yield path
    shutil.rmtree(path, ignore_errors=True)


def test_the_in_house_agent_passes_its_gate_in_the_sandbox(workdir: Path, agent_home: Path) -> None:
    (command,) = readme_commands("agent")
    mounted = command[command.index("--hwrepair-agent-mount") + 1]
    words = [w.replace(mounted, str(agent_home)) for w in command]
    # Narrowed to two bugs (-k) and one sample each: the command as written runs every built-in bug 5 times.
    select = " or ".join(f"({Path(design).name} and {bug})" for design, bug in AGENT_BUGS)
    done = run(workdir, words, "-k", select, "--hwrepair-samples", "1", "--hwrepair-run", "run")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    records = records_of(workdir / "run")
    assert sorted(str(r["bug"]) for r in records) == sorted(bug for _, bug in AGENT_BUGS)
    assert {r["outcome"] for r in records} == {"passed"} and all(str(r["fixer"]).startswith("cmd:") for r in records)
    logs = [(workdir / "run" / "artifacts" / str(r["artifact"]) / "agent.stdout").read_text() for r in records]
    assert all(log.startswith("fixed ") for log in logs), logs  # the agent ran, from its mount, and fixed each


def test_the_in_house_agent_gate_fails_when_the_agent_fixes_nothing(workdir: Path, agent_home: Path) -> None:
    (agent_home / "fixes.json").write_text("{}")
    (command,) = readme_commands("agent")
    mounted = command[command.index("--hwrepair-agent-mount") + 1]
    words = [w.replace(mounted, str(agent_home)) for w in command]
    # Narrowed to one bug and one sample, as above.
    design, bug = AGENT_BUGS[0]
    done = run(workdir, words, "-k", f"{Path(design).name} and {bug}", "--hwrepair-samples", "1")
    assert done.returncode == 6, done.stdout[-3000:] + done.stderr[-2000:]


# --- a subset with -k ------------------------------------------------------------------------------------------


def test_the_subset_selects_exactly_the_bugs_of_its_type(workdir: Path) -> None:
    (command,) = readme_commands("subset")
    done = run(workdir, command, "--collect-only", "-q")
    assert done.returncode == 0, done.stdout[-3000:]
    ids = [line for line in done.stdout.splitlines() if "::" in line]
    keyword = command[command.index("-k") + 1]
    assert len(ids) > 10 and all(f"::{keyword}-" in nodeid for nodeid in ids), ids[:5]


def test_the_subset_runs(workdir: Path) -> None:
    (command,) = readme_commands("subset")
    # Narrowed to one shard of twenty (two bugs): the whole subset is over 50 bugs, each built and judged.
    done = run(workdir, command, "--hwrepair-shard", "1/20", "--hwrepair-run", "run")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    records = records_of(workdir / "run")
    keyword = command[command.index("-k") + 1]
    assert records and all(str(r["bug"]).startswith(keyword) and r["outcome"] == "passed" for r in records)
