# SPDX-License-Identifier: Apache-2.0
"""The fenced blocks of the documents that the consumer tests run as printed."""
import re

from hermetic import Failure


def fenced(path, kind):
    """Every ```kind block of the Markdown file at path, in order."""
    text = open(path, encoding="utf-8").read()
    return re.findall(r"^```%s\n(.*?)^```" % re.escape(kind), text, flags=re.M | re.S)


def only_block(path, kind, containing):
    """The one ```kind block of path that contains `containing`; none or
    several is a Failure (the document changed under the test)."""
    found = [b for b in fenced(path, kind) if containing in b]
    if len(found) != 1:
        raise Failure("%s has %d ```%s blocks containing %r, expected one"
                      % (path, len(found), kind, containing))
    return found[0]


def readme_c_example(readme):
    """README's C example (its first ```c block): the `app.c` of the README's
    custom-prefix block and the `APP` of docs/embedding.md's."""
    blocks = fenced(readme, "c")
    if not blocks:
        raise Failure("%s has no ```c example" % readme)
    return blocks[0]
