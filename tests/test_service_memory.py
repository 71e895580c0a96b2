"""`tavla serve` fixes glibc's malloc thresholds so freed search memory goes back to the system."""

from __future__ import annotations

import platform
from typing import List, Tuple

import pytest

from tavla.service.memory import M_MMAP_THRESHOLD, M_TRIM_THRESHOLD, THRESHOLD_BYTES, return_freed_memory


class FakeLibc:
    def __init__(self, answer: int = 1) -> None:
        self.calls: List[Tuple[int, int]] = []
        self.answer = answer

    def mallopt(self, param: int, value: int) -> int:
        self.calls.append((param, value))
        return self.answer


def test_both_thresholds_are_set() -> None:
    libc = FakeLibc()
    assert return_freed_memory(environ={}, libc=libc)
    assert libc.calls == [(M_MMAP_THRESHOLD, THRESHOLD_BYTES), (M_TRIM_THRESHOLD, THRESHOLD_BYTES)]


@pytest.mark.parametrize("variable", ["MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_"])
def test_a_users_own_setting_is_left_alone(variable: str) -> None:
    libc = FakeLibc()
    assert not return_freed_memory(environ={variable: "65536"}, libc=libc)
    assert libc.calls == []


def test_a_refused_setting_is_reported() -> None:
    assert not return_freed_memory(environ={}, libc=FakeLibc(answer=0))


def test_a_c_library_without_mallopt_is_a_no_op() -> None:
    assert not return_freed_memory(environ={}, libc=object())


@pytest.mark.skipif(platform.system() != "Linux" or platform.libc_ver()[0] != "glibc", reason="glibc only")
def test_glibc_accepts_the_thresholds() -> None:
    assert return_freed_memory(environ={})
