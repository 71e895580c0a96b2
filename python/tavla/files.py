"""Saving files whole: a saved file is either the old one or the new one, never half of the new.

Every file tavla writes (``tavla play --save``'s game and match records, the training scripts'
networks, data sets and fixtures) goes through :func:`write_atomic`: the data goes to a temporary
file in the same folder, is flushed to disk, and then takes the target's name in one step
(``os.replace``). A write that fails part way (a full disk, an interrupt, a crash) leaves the old
file as it was, and no temporary file behind.
"""

from __future__ import annotations

import io
import os
import tempfile
from typing import Any, Union

import numpy as np

__all__ = ["save_npy", "save_npz", "write_atomic"]

PathLike = Union[str, "os.PathLike[str]"]


def write_atomic(path: PathLike, data: Union[str, bytes], *, encoding: str = "utf-8") -> None:
    """Writes ``data`` (text in ``encoding``, or bytes) to ``path`` whole, or not at all.

    The new file keeps the old one's permission bits (a new one gets the usual ones for the umask); a
    link is followed, as ``open`` would, and the file it names replaced. Raises OSError as ``open``
    would; the old file is then untouched."""
    target = os.fspath(path)
    if os.path.islink(target):
        target = os.path.realpath(target)
    payload = data.encode(encoding) if isinstance(data, str) else bytes(data)
    folder = os.path.dirname(os.path.abspath(target))
    handle, temporary = tempfile.mkstemp(dir=folder, prefix="." + os.path.basename(target)[:100] + ".",
                                         suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as f:
            f.write(payload)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(temporary, _mode_for(target))
        os.replace(temporary, target)
    except BaseException:
        try:
            os.unlink(temporary)
        except FileNotFoundError:
            pass
        raise
    _sync_folder(folder)


def _mode_for(target: str) -> int:
    """The old file's permission bits, else what ``open`` would give a new file (0o666 less the umask)."""
    try:
        return os.stat(target).st_mode & 0o7777
    except FileNotFoundError:
        return 0o666 & ~_umask()


def _umask() -> int:
    try:  # Linux shows it without changing it
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    umask = os.umask(0o022)  # elsewhere it can only be read by setting it (briefly, process-wide)
    os.umask(umask)
    return umask


def _sync_folder(folder: str) -> None:
    """Flushes the folder's entry for the new name, where the system allows it (Windows does not)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def save_npy(path: PathLike, array: Any) -> None:
    """``numpy.save`` through :func:`write_atomic` (the training scripts' caches are read back whenever
    the file exists, so a half-written one must never be there)."""
    buffer = io.BytesIO()
    np.save(buffer, array)
    write_atomic(path, buffer.getvalue())


def save_npz(path: PathLike, **arrays: Any) -> None:
    """``numpy.savez`` through :func:`write_atomic`."""
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    write_atomic(path, buffer.getvalue())
