"""bench/scale.py's measurement of one step: the child's own peak RSS (not that of the
process it was started from), its CPU seconds, its one-line failure, its timeout and its
memory cap."""

from __future__ import annotations

import signal
import sys

from bench import scale

HELD = 200 * 2**20


def python(code: str) -> list[str]:
    return [sys.executable, "-c", code]


def touch(size: int) -> bytearray:
    block = bytearray(size)
    block[::4096] = b"\1" * len(range(0, size, 4096))
    return block


def test_a_step_counts_the_childs_memory_not_the_scripts(tmp_path):
    held = touch(HELD)  # the script's own RSS, which a child forked from it would inherit as its peak
    small, _ = scale.run_child("small", python("pass"), 60, tmp_path)
    large, _ = scale.run_child("large", python(f"b = bytearray({HELD // 2})\nb[::4096] = b'\\1' * {HELD // 2 // 4096}"), 60, tmp_path)
    assert small.ok and large.ok
    assert small.rss < HELD // 4
    assert HELD // 2 <= large.rss < HELD // 2 + HELD // 4
    assert len(held) == HELD


def test_a_step_counts_the_childs_cpu_seconds(tmp_path):
    step, _ = scale.run_child("spin", python("import time\nend = time.process_time() + 0.5\nwhile time.process_time() < end: pass"), 60, tmp_path)
    assert step.ok and 0.5 <= step.cpu < 5 and step.wall >= 0.5


def test_a_failed_step_shows_its_last_line_and_a_slow_one_its_timeout(tmp_path):
    step, _ = scale.run_child("fail", python("import sys\nprint('first', file=sys.stderr)\nsys.exit('cfmem: m.mlir: error: bad')"), 60, tmp_path)
    assert not step.ok and step.note == "exit 1: cfmem: m.mlir: error: bad"
    step, _ = scale.run_child("fail", python(f"import sys\nsys.exit('cfmem: {tmp_path}/m.mlir: error: bad')"), 60, tmp_path)
    assert step.note == "exit 1: cfmem: DIR/m.mlir: error: bad"
    step, _ = scale.run_child("slow", python("import time\ntime.sleep(60)"), 1, tmp_path)
    assert not step.ok and step.note == "timed out after 1 s" and step.wall < 30 and step.rss is None


def test_a_step_past_its_memory_cap_fails_in_one_line_and_a_killed_one_names_its_signal(tmp_path):
    grab = python(f"b = bytearray({2 * HELD})")
    step, _ = scale.run_child("grab", grab, 60, tmp_path, memory_cap=HELD)
    assert not step.ok and step.note == "exit 1: out of memory (the address-space cap)"
    assert scale.run_child("grab", grab, 60, tmp_path)[0].ok
    step, _ = scale.run_child("killed", python(f"import os\nos.kill(os.getpid(), {int(signal.SIGKILL)})"), 60, tmp_path)
    assert not step.ok and step.note == "killed by SIGKILL (the kernel's out-of-memory killer?)"
