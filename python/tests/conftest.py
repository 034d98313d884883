"""Shared by the Python package's tests: where the tool, the corpus and the build are.

ctest (python/CMakeLists.txt) sets CALLTREE_BINARY (the calltree tool), CALLTREE_CORPUS_DIR,
CALLTREE_FUNCTION_COSTS (function_costs.cc: the library's own numbers), CALLTREE_BUILD_DIR and
CALLTREE_SOURCE_DIR, and PYTHONPATH to the build tree's package.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest


def _env(name: str) -> str:
    value = os.environ.get(name)
    if not value:
        raise RuntimeError(f"{name} is not set: run the tests through ctest (python.pytest)")
    return value


CALLTREE = _env("CALLTREE_BINARY")
CORPUS = Path(_env("CALLTREE_CORPUS_DIR"))
FUNCTION_COSTS = _env("CALLTREE_FUNCTION_COSTS")
BUILD_DIR = Path(_env("CALLTREE_BUILD_DIR"))
SOURCE_DIR = Path(_env("CALLTREE_SOURCE_DIR"))

# Every profile of the corpus (tests/corpus/README.md), compressed or not.
CORPUS_FILES = sorted(p for p in CORPUS.iterdir()
                      if p.is_file() and (p.name.endswith((".callgrind", ".cachegrind", ".gz"))))
assert len(CORPUS_FILES) >= 30, f"the corpus has {len(CORPUS_FILES)} profiles"


def corpus_ids(paths: list[Path]) -> list[str]:
    return [p.name for p in paths]


def run_json(*args: str, ok_codes: tuple[int, ...] = (0, 1)) -> dict:
    """The calltree tool's one JSON object (check --json, diff --json)."""
    done = subprocess.run([CALLTREE, *args], capture_output=True, text=True, check=False)
    assert done.returncode in ok_codes, f"calltree {' '.join(args)}: {done.returncode}\n{done.stderr}"
    return json.loads(done.stdout)


@pytest.fixture(scope="session")
def corpus() -> Path:
    return CORPUS
