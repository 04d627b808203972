"""Keep freed memory in the process on Linux, so a batch's large tensors do not cost a page fault a page.

Why: glibc hands allocations above its mmap threshold (128 KiB at first) back to the kernel when freed, and
the next one is zeroed and faulted in page by page. An array engine makes tensors of megabytes every step
(a 4,096-row observation is 9 MB), so that cost alone was 6.8 ms a step on the 2-core machine, more than
the step's arithmetic; with freed memory kept for reuse it is 0.3 ms. PyTorch's CPU tuning guide reaches
the same end by preloading jemalloc or tcmalloc. Elsewhere (no glibc) this does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys

_M_TRIM_THRESHOLD, _M_TOP_PAD, _M_MMAP_THRESHOLD = -1, -2, -3
_done = False


def keep_freed_memory() -> bool:
    """Raise glibc's mmap threshold to its 32 MiB maximum and keep up to 256 MiB of freed heap; once per
    process. Returns whether glibc took the settings."""
    global _done
    if _done or not sys.platform.startswith("linux"):
        return _done
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    _done = all(mallopt(param, value) == 1 for param, value in (
        (_M_MMAP_THRESHOLD, 32 << 20), (_M_TRIM_THRESHOLD, 256 << 20), (_M_TOP_PAD, 64 << 20)))
    return _done
