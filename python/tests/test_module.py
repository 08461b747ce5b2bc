# SPDX-License-Identifier: Apache-2.0
"""The module: version, ISA reporting and selection, docstrings and stubs."""
import ast
import json
import os
import subprocess
import sys

import blockbloom


def test_version_is_the_librarys(tool):
    assert blockbloom.__version__.count(".") == 2
    tool_version = subprocess.run([tool, "--version"], capture_output=True, text=True, check=True).stdout
    assert tool_version.split() == ["blockbloom", blockbloom.__version__]
    project = os.environ.get("BLOCKBLOOM_PROJECT_VERSION")
    if project:
        assert blockbloom.__version__ == project


def test_isa_names_are_the_registry_the_tool_reports(tool):
    names = blockbloom.isa_names()
    assert names[-1] == "scalar" and len(set(names)) == len(names)
    info = subprocess.run([tool, "info", "--json"], capture_output=True, text=True, check=True).stdout
    assert names == json.loads(info)["isas"]


def test_isa_lists():
    registry = blockbloom.isa_names()
    compiled, supported = blockbloom.compiled_isas(), blockbloom.supported_isas()
    assert "scalar" in supported and set(supported) <= set(compiled) <= set(registry)
    assert compiled == [t for t in registry if t in compiled]
    assert supported == [t for t in registry if t in supported]
    assert blockbloom.selected_isa() in supported


def test_select_isa_switches_every_filter():
    before = blockbloom.selected_isa()
    f = blockbloom.Filter(1024)
    try:
        for tier in blockbloom.supported_isas():
            assert blockbloom.select_isa(tier) is None
            assert blockbloom.selected_isa() == tier
            f.insert(tier.__hash__() % 2**64)
    finally:
        blockbloom.select_isa(before)
    assert blockbloom.selected_isa() == before


def test_the_environment_forces_a_tier_at_load():
    code = "import blockbloom; print(blockbloom.selected_isa())"
    env = dict(os.environ, BLOCKBLOOM_ISA="scalar")
    result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "scalar"


def public_members(cls):
    return {name for name in vars(cls) if not name.startswith("_")}


def test_every_public_name_has_a_docstring():
    assert blockbloom.__doc__ and blockbloom._core.__doc__
    for name in blockbloom.__all__:
        if name != "__version__":
            assert (getattr(blockbloom, name).__doc__ or "").strip(), name
    for name in public_members(blockbloom.Filter):
        assert (getattr(blockbloom.Filter, name).__doc__ or "").strip(), "Filter." + name
    for name in ("__contains__", "__len__", "__eq__"):
        assert getattr(blockbloom.Filter, name).__doc__, name
    assert "read_only" in blockbloom.Filter.__doc__ or "read-only" in blockbloom.Filter.__doc__


def test_the_stubs_declare_what_the_module_has():
    package = os.path.dirname(blockbloom.__file__)
    assert os.path.exists(os.path.join(package, "py.typed"))
    with open(os.path.join(package, "__init__.pyi"), encoding="utf-8") as fh:
        stub = ast.parse(fh.read())
    top = {}
    for node in stub.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            top[node.name] = node
        elif isinstance(node, ast.AnnAssign):
            top[node.target.id] = node
        elif isinstance(node, ast.ImportFrom):  # the submodules (blockbloom.parquet)
            for alias in node.names:
                top[alias.asname or alias.name] = node
    assert set(blockbloom.__all__) <= set(top), set(blockbloom.__all__) - set(top)
    stub_filter = {n.name for n in top["Filter"].body if isinstance(n, ast.FunctionDef)}
    assert public_members(blockbloom.Filter) <= stub_filter, public_members(blockbloom.Filter) - stub_filter
    assert {n for n in stub_filter if not n.startswith("_")} <= public_members(blockbloom.Filter)
    # Every public stub has a docstring.
    for name in blockbloom.__all__:
        node = top[name]
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            assert ast.get_docstring(node), name
    with open(os.path.join(package, "parquet.pyi"), encoding="utf-8") as fh:
        parquet_stub = {n.name: n for n in ast.parse(fh.read()).body if isinstance(n, ast.FunctionDef)}
    assert set(parquet_stub) == set(blockbloom.parquet.__all__)
    for name, node in parquet_stub.items():
        assert ast.get_docstring(node) and getattr(blockbloom.parquet, name).__doc__, "parquet." + name
    for node in top["Filter"].body:
        if isinstance(node, ast.FunctionDef) and not node.name.startswith("_") and \
                not any(isinstance(d, ast.Name) and d.id == "overload" for d in node.decorator_list):
            assert ast.get_docstring(node), "Filter." + node.name

