"""Whether a view's upper layer is empty, read from one stat of it, agrees with its entries.

A clean view is reused by the thread's next trial, so a wrong "clean" would let
one trial's files reach the next. The answer comes from the size tmpfs gives a
directory (a constant per entry, whiteouts included); these tests change the
view every way a trial can and compare that answer with a listing of the layer.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from isolation_helpers import needs_overlay

from agentic_evals.runner import kernel
from agentic_evals.runner.isolation.mounts import ThreadMounts
from agentic_evals.runner.isolation.overlay import Overlay

pytestmark = [
    needs_overlay,
    pytest.mark.skipif(not kernel.capable_sys_admin(), reason="mounts from this thread need root"),
]

Step = Callable[[Path], object]


def _in_a_view(tmp_path: Path, steps: list[Step]) -> list[tuple[bool, bool]]:
    """Run ``steps`` on an overlay of a small tree, each followed by (clean(), layer empty).

    The overlay lives in a thread of its own: entering the private namespace
    moves the calling thread, and the test's thread stays where it is.
    """
    lower, target = tmp_path / "lower", tmp_path / "view"
    (lower / "sub").mkdir(parents=True)
    (lower / "kept.txt").write_text("kept\n")
    (lower / "sub" / "inner.txt").write_text("inner\n")
    target.mkdir()
    answers: list[tuple[bool, bool]] = []
    failure: list[BaseException] = []

    def work() -> None:
        mounts = ThreadMounts.enter("clean-test", user_namespace=False, restore=False)
        try:
            layer = Overlay(mounts, mounts.lower(lower), target)
            answers.append((layer.clean(), not any(layer.upper.iterdir())))
            for step in steps:
                layer.in_use()  # a trial ran: the answer is read again
                step(target)
                answers.append((layer.clean(), not any(layer.upper.iterdir())))
        except BaseException as error:
            failure.append(error)
        finally:
            mounts.release()

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    if failure:
        raise failure[0]
    return answers


def _write(name: str) -> Step:
    return lambda view: (view / name).write_text("new\n")


def _remove(name: str) -> Step:
    return lambda view: (view / name).unlink()


def _mkdir(name: str) -> Step:
    return lambda view: (view / name).mkdir()


def _rmdir(name: str) -> Step:
    return lambda view: (view / name).rmdir()


def test_a_fresh_view_is_clean_and_one_new_file_makes_it_not(tmp_path: Path) -> None:
    answers = _in_a_view(tmp_path, [_write("added.txt")])
    assert answers == [(True, True), (False, False)]


def test_a_file_made_and_removed_again_leaves_the_view_clean(tmp_path: Path) -> None:
    answers = _in_a_view(tmp_path, [_write("brief.txt"), _remove("brief.txt")])
    assert answers == [(True, True), (False, False), (True, True)]


@pytest.mark.parametrize(
    "step",
    [
        _remove("kept.txt"),  # a whiteout
        lambda view: (view / "sub" / "inner.txt").unlink(),
        lambda view: os.chmod(view / "kept.txt", 0o600),  # a copy-up of metadata only
        lambda view: (view / "kept.txt").rename(view / "moved.txt"),
        lambda view: (view / "sub" / "deeper.txt").write_text("x\n"),  # the parent copied up
        _mkdir("fresh-dir"),
        lambda view: os.symlink("kept.txt", view / "link"),
        lambda view: os.mkfifo(view / "pipe"),
    ],
    ids=[
        "whiteout",
        "whiteout-in-subdir",
        "chmod",
        "rename",
        "new-in-subdir",
        "mkdir",
        "symlink",
        "fifo",
    ],  # fmt: skip
)
def test_every_kind_of_change_makes_the_view_not_clean(tmp_path: Path, step: Step) -> None:
    answers = _in_a_view(tmp_path, [step])
    assert answers == [(True, True), (False, False)]


@pytest.mark.parametrize(
    "step",
    [
        lambda view: os.chmod(view, 0o700),
        lambda view: os.chown(view, 12345, 12345),
        lambda view: os.setxattr(view, "user.left", b"by a trial"),
    ],
    ids=["chmod", "chown", "setxattr"],
)
def test_a_changed_root_of_the_view_makes_it_not_clean_though_nothing_was_written(
    tmp_path: Path, step: Step
) -> None:
    # The view's root is the upper layer's own directory: no entry appears, yet the next
    # trial would see the mode, the owner or the attribute this one left.
    answers = _in_a_view(tmp_path, [step])
    assert answers == [(True, True), (False, True)]


_NAMES = st.sampled_from(["a", "b", "kept.txt"])
_STEPS = st.lists(st.tuples(st.sampled_from(["write", "remove", "mkdir", "rmdir"]), _NAMES),
                  min_size=1, max_size=6)  # fmt: skip


def _tolerant(kind: str, name: str) -> Step:
    """A step that may find its name taken or missing (then it does nothing)."""
    act = {"write": _write, "remove": _remove, "mkdir": _mkdir, "rmdir": _rmdir}[kind](name)

    def step(view: Path) -> None:
        try:
            act(view)
        except OSError:
            pass

    return step


@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(_STEPS)
def test_any_sequence_of_changes_is_answered_as_the_layer_lists_it(
    tmp_path_factory: pytest.TempPathFactory, steps: list[tuple[str, str]]
) -> None:
    tmp_path = tmp_path_factory.mktemp("clean")
    answers = _in_a_view(tmp_path, [_tolerant(kind, name) for kind, name in steps])
    assert all(clean == empty for clean, empty in answers), answers
