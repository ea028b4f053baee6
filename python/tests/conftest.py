"""Shared fixtures of the `sit` package tests: the repository root and `sitc`.

`sitc` is the binary given by the environment variable SITC (cli/tests/python.rs sets
it to the one cargo built); without it, the tests that compare with `sitc` are skipped.
"""

import csv
import io
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MODELS = ROOT / "examples" / "models"


def library():
    """Every `.sit` file of the model library."""
    return sorted(MODELS.glob("*.sit")) + sorted((MODELS / "complex").glob("*.sit"))


@pytest.fixture(scope="session")
def sitc():
    """A function running `sitc ARGS...` and returning (header, rows of floats)."""
    exe = os.environ.get("SITC")
    if not exe:
        pytest.skip("SITC is not set: the path of the sitc binary to compare with")

    def run(*args):
        out = subprocess.run(
            [exe, *map(str, args)], capture_output=True, text=True, cwd=ROOT
        )
        assert out.returncode == 0, out.stderr
        table = list(csv.reader(io.StringIO(out.stdout)))
        # Rust prints each f64 as the shortest decimal that reads back to the same
        # bits, so float() of the text is the value sitc computed, exactly. A mode's
        # column holds its state's name (docs/language.md): kept as the text.
        return table[0], [[number_or_name(x) for x in row] for row in table[1:]]

    return run


def number_or_name(text):
    """The float a trace cell holds, or its text for a mode's state name."""
    try:
        return float(text)
    except ValueError:
        return text


def same_bits(a, b):
    """Whether two floats are the same value (NaNs equal whatever their payload)."""
    return (a != a and b != b) or (a == b and str(a) == str(b))


@pytest.fixture(scope="session")
def sitc_exe():
    """The path of the sitc binary (skips without SITC)."""
    exe = os.environ.get("SITC")
    if not exe:
        pytest.skip("SITC is not set: the path of the sitc binary to compare with")
    return exe
