"""Telling glibc's malloc to hand freed memory back to the system while the service runs.

A gul bara cascade search allocates tens of MiB for a moment. With glibc's default, dynamic
thresholds those blocks end up in the heap and stay in the process after they are freed, so a
long-running service's RSS creeps up to the high-water mark of its concurrent searches (the soak
runs in benches/README.md: +37 MiB over 300 s by default, +15 MiB with these thresholds). Fixed
thresholds of 128 KiB make large blocks separate mappings, returned on free, and trim the heap top.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
from typing import Any, Mapping, Optional

# mallopt parameters from glibc's <malloc.h>.
M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3
THRESHOLD_BYTES = 128 * 1024
# A user who sets glibc's own variables has chosen; the service leaves them alone.
GLIBC_VARIABLES = ("MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_")


def load_libc() -> Optional[Any]:
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        return ctypes.CDLL(name)
    except OSError:
        return None


def return_freed_memory(environ: Mapping[str, str] = os.environ, libc: Optional[Any] = None) -> bool:
    """Sets the fixed thresholds; True when malloc accepted both. False, and nothing changed, where the
    C library is not glibc (no mallopt), or the environment already sets either threshold."""
    if any(v in environ for v in GLIBC_VARIABLES):
        return False
    libc = load_libc() if libc is None else libc
    mallopt = getattr(libc, "mallopt", None)
    if mallopt is None:
        return False
    # mallopt answers 1 on success, 0 on error.
    return bool(mallopt(M_MMAP_THRESHOLD, THRESHOLD_BYTES)) and bool(mallopt(M_TRIM_THRESHOLD, THRESHOLD_BYTES))
