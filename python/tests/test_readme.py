# SPDX-License-Identifier: Apache-2.0
"""The Python examples of README.md and python/README.md run as printed."""
import os
import re

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.mark.parametrize("readme", ["README.md", os.path.join("python", "README.md")])
def test_python_examples_run(readme):
    with open(os.path.join(ROOT, readme), encoding="utf-8") as fh:
        blocks = re.findall(r"```python\n(.*?)```", fh.read(), flags=re.S)
    assert blocks, "no ```python block in " + readme
    for block in blocks:
        exec(compile(block, readme, "exec"), {})
