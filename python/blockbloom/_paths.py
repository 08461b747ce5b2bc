# SPDX-License-Identifier: Apache-2.0
"""The files a dataset's paths name: directories walked and globs matched by
one walk, so both forms agree. A directory that cannot be listed is reported,
never passed over as if empty (os.walk and glob.glob alone are silent about
it: files under it would go unprobed with no word). Symlinked directories are
followed in both forms, each directory entered once (a link cycle ends)."""

import fnmatch as _fnmatch
import os as _os

_MAGIC = "*?["


def _path_text(path):
    if not isinstance(path, (str, bytes)) and not hasattr(path, "__fspath__"):
        raise TypeError("paths: expected a str, bytes or os.PathLike path or a list of them, "
                        "got %s" % type(path).__name__)
    return _os.fsdecode(path)


def _walk(top, errors):
    """os.walk(top) following symlinked directories, each directory (by device
    and inode) once; every directory that cannot be listed goes into errors as
    (path, message). Top-down: the caller may prune dirnames."""
    seen = set()

    def unlistable(e):
        errors.append((e.filename if e.filename is not None else top,
                       "a directory that cannot be listed (%s): files under it were not probed"
                       % (e.strerror or e)))

    try:
        st = _os.stat(top)
        seen.add((st.st_dev, st.st_ino))
    except OSError:
        pass  # os.walk reports it through unlistable
    for dirpath, dirnames, filenames in _os.walk(top, onerror=unlistable, followlinks=True):
        kept = []
        for d in sorted(dirnames):
            try:
                st = _os.stat(_os.path.join(dirpath, d))
            except OSError as e:
                unlistable(e)
                continue
            if (st.st_dev, st.st_ino) not in seen:
                seen.add((st.st_dev, st.st_ino))
                kept.append(d)
        dirnames[:] = kept
        yield dirpath, dirnames, filenames


def _parquet_files_under(directory, errors):
    """Every *.parquet file under directory, recursively (a dangling symlink
    so named too: it is reported when it cannot be opened)."""
    found = []
    for root, _dirs, names in _walk(directory, errors):
        found.extend(_os.path.join(root, n) for n in names if n.endswith(".parquet"))
    return found


def _name_matches(name, pattern):
    """glob's rule for one path component: a wildcard does not match a
    leading dot unless the pattern has one."""
    if not any(ch in pattern for ch in _MAGIC):
        return name == pattern
    if name.startswith(".") and not pattern.startswith("."):
        return False
    return _fnmatch.fnmatchcase(name, pattern)


def _matches(names, patterns):
    """Whether the components names match the pattern's components ("**":
    any number of components, none hidden)."""
    if not patterns:
        return not names
    if patterns[0] == "**":
        return _matches(names, patterns[1:]) or (
            bool(names) and not names[0].startswith(".") and _matches(names[1:], patterns))
    return bool(names) and _name_matches(names[0], patterns[0]) and _matches(names[1:], patterns[1:])


def _may_lead(names, patterns):
    """Whether something under the directory names could match patterns."""
    if not names:
        return bool(patterns)
    if not patterns:
        return False
    if patterns[0] == "**":
        return _may_lead(names, patterns[1:]) or (
            not names[0].startswith(".") and _may_lead(names[1:], patterns))
    return _name_matches(names[0], patterns[0]) and _may_lead(names[1:], patterns[1:])


def _glob_files(pattern, errors):
    """The files a glob names (** spans folders): files it matches, and the
    *.parquet files under the directories it matches. The walk starts at the
    pattern's leading components without wildcards."""
    parts = [p for p in pattern.split(_os.sep) if p not in ("", ".")]
    absolute = pattern.startswith(_os.sep)
    base_parts = []
    while parts and not any(ch in parts[0] for ch in _MAGIC):
        base_parts.append(parts.pop(0))
    base = _os.path.join(_os.sep if absolute else "", *base_parts) if (absolute or base_parts) else "."
    if not _os.path.isdir(base):
        return []
    found, under_match = [], set()
    for dirpath, dirnames, filenames in _walk(base, errors):
        rel = _os.path.relpath(dirpath, base)
        names = [] if rel == "." else rel.split(_os.sep)
        inside = (_os.path.dirname(dirpath) in under_match and bool(names)) or (
            bool(names) and _matches(names, parts))
        if inside:
            under_match.add(dirpath)
            found.extend(_os.path.join(dirpath, n) for n in filenames if n.endswith(".parquet"))
        else:
            found.extend(_os.path.join(dirpath, n) for n in filenames if _matches(names + [n], parts))
            dirnames[:] = [d for d in dirnames if _may_lead(names + [d], parts) or _matches(names + [d], parts)]
    if base == "." and not pattern.startswith("."):
        found = [_os.path.relpath(f) if f.startswith("." + _os.sep) else f for f in found]
    return found


def expand_paths(paths):
    """(files, errors): paths (a path, a directory, a glob, or a list or
    tuple of these) as a sorted list of distinct file paths, and
    [(path, message)] for a glob that matches nothing, a directory that
    holds no *.parquet file and a directory that cannot be listed. A path
    that names no file is kept: opening it reports why."""
    if isinstance(paths, (list, tuple)):
        items = [_path_text(p) for p in paths]
    else:
        items = [_path_text(paths)]
    files, errors = set(), []
    for item in items:
        listing = []
        if _os.path.isdir(item):
            under = _parquet_files_under(item, listing)
            if not under and not listing:
                errors.append((item, "a directory with no *.parquet file under it"))
            files.update(under)
        elif not _os.path.lexists(item) and any(ch in item for ch in _MAGIC):
            matched = _glob_files(item, listing)
            if not matched and not listing:
                errors.append((item, "no file matches this pattern"))
            files.update(matched)
        else:
            files.add(item)
        errors.extend(listing)
    # One open per file, whichever spelling of its path named it.
    by_path = {}
    for f in files:
        by_path.setdefault(_os.path.normpath(f), f)
    return sorted(by_path), errors
