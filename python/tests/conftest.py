# SPDX-License-Identifier: Apache-2.0
"""Shared fixtures: every ISA tier this CPU runs, the blockbloom tool, the test data."""
import os
import subprocess

import numpy as np
import pytest

import blockbloom

SUPPORTED_ISAS = blockbloom.supported_isas()


@pytest.fixture(params=SUPPORTED_ISAS)
def each_isa(request):
    """Runs the test once per tier this build and CPU support, restoring the selection."""
    before = blockbloom.selected_isa()
    blockbloom.select_isa(request.param)
    try:
        yield request.param
    finally:
        blockbloom.select_isa(before)


@pytest.fixture(scope="session")
def tool():
    """The blockbloom command-line tool of the same build ($BLOCKBLOOM_TOOL)."""
    path = os.environ.get("BLOCKBLOOM_TOOL")
    if not path or not os.path.exists(path):
        pytest.skip("the blockbloom tool is not built (-Dtools=false): set BLOCKBLOOM_TOOL")
    return path


def shared_testdata(name):
    """A file of ../shared/testdata, or a skip saying it is absent."""
    folder = os.environ.get("BLOCKBLOOM_TESTDATA",
                            os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "testdata"))
    path = os.path.join(folder, name)
    if not os.path.exists(path):
        pytest.skip("%s is absent (../shared/testdata is not part of the repository)" % path)
    return path


def run_tool(tool, args, tmp_path, lines, name="input.txt"):
    """Runs `blockbloom build ARGS --input FILE -o OUT` over lines; returns OUT's bytes.
    The tests compare bare bitsets, so the build writes --format raw, and lines
    are hashes (--raw-hashes) unless ARGS give a --type."""
    source = tmp_path / name
    source.write_bytes(b"".join(line + b"\n" for line in lines))
    out = tmp_path / (name + ".bin")
    values = [] if "--type" in args or "--raw-hashes" in args else ["--raw-hashes"]
    subprocess.run([tool, "build", "--format", "raw"] + values + args +
                   ["--input", str(source), "-o", str(out)], check=True, capture_output=True)
    return out.read_bytes()


def random_hashes(n, seed=1, bits=64):
    rng = np.random.default_rng(seed)
    if bits == 64:
        return rng.integers(0, 2**64, size=n, dtype=np.uint64, endpoint=False)
    return rng.integers(0, 2**32, size=n, dtype=np.uint32, endpoint=False)
