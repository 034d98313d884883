"""The example scripts of examples/python/ on real profiles."""

from __future__ import annotations

import shutil
import subprocess
import sys

from conftest import CORPUS, SOURCE_DIR

EXAMPLES = SOURCE_DIR / "examples" / "python"


def run(script: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(EXAMPLES / script), *args],
                          capture_output=True, text=True, timeout=300, check=False)


def test_gate_passes_when_cost_went_down():
    done = run("gate.py", str(CORPUS / "vg-phases-toggle-collect.callgrind"),
               str(CORPUS / "vg-phases-dump-before-zero-combined.callgrind"))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "Ir: 464,559,635 -> 170,713,534 (-63.25%)"
    assert "the functions whose self Ir changed most (8 listed):" in lines
    assert any(l.startswith("changed     215,321,358 ->     78,423,392  msort_with_tmp.part.0'2")
               for l in lines), done.stdout
    assert lines[-1] == "gate: passed (Ir -63.25%, at most +1.0%)"


def test_gate_fails_when_cost_grew():
    done = run("gate.py", str(CORPUS / "vg-phases-dump-before-zero-combined.callgrind"),
               str(CORPUS / "vg-phases-toggle-collect.callgrind"), "--fail-above=5")
    assert done.returncode == 1
    assert done.stdout.splitlines()[-1] == "gate: FAILED: Ir grew by 172.13% (more than 5.0%)"


def test_gate_on_a_missing_file():
    done = run("gate.py", str(CORPUS / "nope.callgrind"), str(CORPUS / "vg-recurse-default.callgrind"))
    assert done.returncode == 2
    assert "[not-found]" in done.stderr


def test_trend_over_a_folder(tmp_path):
    for i, name in enumerate(["vg-recurse-default.callgrind", "vg-recurse-cacheuse.callgrind",
                              "vg-recurse-separate-recs-callers.callgrind"]):
        shutil.copy(CORPUS / name, tmp_path / f"run{i}.callgrind")
    (tmp_path / "notes.txt").write_text("not a profile\n")
    plot = tmp_path / "fib.png"
    done = run("trend.py", str(tmp_path), "main", f"--plot={plot}")
    assert done.returncode == 0, done.stderr
    assert "notes.txt" in done.stderr and "[no-profile]" in done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split() == ["event", "self", "inclusive", "share", "%"]
    assert lines[1].split() == ["run"]
    assert lines[2].split()[:4] == ["run0.callgrind", "Ir", "67", "362733729"]
    assert [l.split()[0] for l in lines[2:5]] == ["run0.callgrind", "run1.callgrind", "run2.callgrind"]
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and plot.stat().st_size > 5000
