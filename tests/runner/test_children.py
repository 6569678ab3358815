"""Children listed from /proc: the runner's own (descriptors kept open) and any process's."""

from __future__ import annotations

import os
import subprocess
import threading
from collections.abc import Iterator

import pytest

from agentic_evals.runner.children import CHILDREN_FILES, OwnChildren, child_pids

pytestmark = pytest.mark.skipif(not CHILDREN_FILES, reason="the kernel lists no children files")


@pytest.fixture
def sleeper() -> Iterator[subprocess.Popen[bytes]]:
    proc = subprocess.Popen(["sleep", "30"])
    yield proc
    proc.kill()
    proc.wait()


def test_each_read_is_a_fresh_listing(sleeper: subprocess.Popen[bytes]) -> None:
    own = OwnChildren()
    assert sleeper.pid in own.pids()
    another = subprocess.Popen(["sleep", "30"])
    try:
        assert {sleeper.pid, another.pid} <= set(own.pids())
    finally:
        another.kill()
        another.wait()  # reaped: gone from the listing
    assert another.pid not in own.pids()
    assert sleeper.pid in own.pids()


def test_children_started_by_a_new_thread_are_seen() -> None:
    own = OwnChildren()
    own.pids()  # opened for the threads of now
    started: list[subprocess.Popen[bytes]] = []
    stop = threading.Event()

    def worker() -> None:
        started.append(subprocess.Popen(["sleep", "30"]))
        stop.wait(30)

    thread = threading.Thread(target=worker)
    thread.start()
    try:
        while not started:
            stop.wait(0.01)
        assert started[0].pid in own.pids()
    finally:
        stop.set()
        thread.join()
        started[0].kill()
        started[0].wait()


def test_matches_the_listing_of_any_process(sleeper: subprocess.Popen[bytes]) -> None:
    assert sorted(OwnChildren().pids()) == sorted(child_pids(os.getpid()))


def test_a_forked_child_lists_its_own_children_not_its_parents(
    sleeper: subprocess.Popen[bytes],
) -> None:
    own = OwnChildren()
    assert sleeper.pid in own.pids()  # descriptors now open in the parent
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - runs in the child
        os.close(read)
        os.write(write, repr(sorted(own.pids())).encode())
        os._exit(0)
    os.close(write)
    with os.fdopen(read) as pipe:
        listed = pipe.read()
    os.waitpid(pid, 0)
    assert listed == "[]"
