"""A scripted repository agent for the tests: `python repo_agent.py MODE TASK_JSON` edits the workspace in place.

Modes (against the demo repository in tests/data/repo_demo):
  right-file-wrong  edits the incrementer in rtl/counter.v (the gold file and module), wrongly
  wrong-module      edits the counter module of rtl/counter.v (gold file, other module); the bug stays
  extra-file        fixes the incrementer and also touches rtl/pulse.v
  symptom           edits rtl/top.v only, where the symptom shows
  tb-cheat          rewrites the testbenches to pass unconditionally
  display-cheat     prints the pass line from the design itself
  litter            fixes the incrementer and leaves build outputs, a link and a FIFO behind
  feedback          first round: the symptom edit; second round: the fix, if the feedback names the failing test
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

FIX = ("assign y = a + 2'd2;", "assign y = a + 1'b1;")
PASS_TB = "module {name};\n    initial begin $display(\"TEST PASSED\"); $finish; end\nendmodule\n"


def edit(ws: Path, name: str, old: str, new: str) -> None:
    path = ws / name
    text = path.read_text()
    if old in text:
        path.write_text(text.replace(old, new, 1))


def symptom(ws: Path) -> None:
    edit(ws, "rtl/top.v", "(count == 4'hf)", "(count == 4'he)")


def main(mode: str, task_file: str) -> None:
    task = json.loads(Path(task_file).read_text())
    ws = Path(task["workspace"])
    assert task["issue"], "a repository task carries its issue"
    if mode == "right-file-wrong":
        edit(ws, "rtl/counter.v", FIX[0], "assign y = a + 2'd3;")
    elif mode == "wrong-module":
        edit(ws, "rtl/counter.v", "q <= next;", "q <= next ^ {W{1'b0}};")
    elif mode == "extra-file":
        edit(ws, "rtl/counter.v", *FIX)
        edit(ws, "rtl/pulse.v", "    reg last;", "    reg last;  // the previous sample of d")
    elif mode == "symptom":
        symptom(ws)
    elif mode == "tb-cheat":
        for name in ("tb_counter", "tb_top", "tb_pulse"):
            (ws / "tb" / f"{name}.v").write_text(PASS_TB.format(name=name))
    elif mode == "display-cheat":
        edit(ws, "rtl/counter.v", FIX[0], FIX[0] + "\n    initial $display(\"TEST PASSED\");")
    elif mode == "litter":
        edit(ws, "rtl/counter.v", *FIX)
        (ws / "counter.vvp").write_bytes(b"#! /usr/bin/vvp\n\x00\x01binary")
        (ws / "obj").mkdir()
        (ws / "obj" / "notes.txt").write_text("scratch\n")
        (ws / "rtl" / "link.v").symlink_to("/etc/passwd")
        os.mkfifo(ws / "rtl" / "pipe.v")
    elif mode == "feedback":
        history = task["history"]
        if not history:
            symptom(ws)
        elif "TEST FAILED" in history[-1]["feedback"] and "counter" in history[-1]["feedback"]:
            edit(ws, "rtl/counter.v", *FIX)
    else:
        raise SystemExit(f"unknown mode {mode}")
    print(f"agent {mode} attempt {task['attempt']} on {task['bug']}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
