"""PipePump: output keeps flowing into the sinks while the runner waits."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator

import pytest

from agentic_evals import clock
from agentic_evals.runner.cancel import Cancellation, TrialCancelled
from agentic_evals.runner.capture import StreamSink
from agentic_evals.runner.pump import PipePump


@pytest.fixture
def pipes() -> Iterator[list[tuple[int, int]]]:
    """Three pipes (read end, write end); whatever is still open is closed afterwards."""
    made = [os.pipe() for _ in range(3)]
    yield made
    for ends in made:
        for fd in ends:
            try:
                os.close(fd)
            except OSError:
                pass


def kept(sink: StreamSink) -> bytes:
    with sink.finish() as stream:
        return stream.read_all()


def test_output_is_pumped_while_waiting_so_a_writer_never_stalls(
    pipes: list[tuple[int, int]],
) -> None:
    (out_r, out_w), (err_r, err_w), (gate_r, gate_w) = pipes
    out, err = StreamSink(), StreamSink()
    chunks: list[int] = []
    pump = PipePump({out_r: out, err_r: err}, on_output=lambda: chunks.append(1))
    big = b"x" * (1 << 20)  # far more than a pipe holds: blocks unless the pump reads

    def writer() -> None:
        os.write(err_w, b"oops")
        view = memoryview(big)
        while view:
            view = view[os.write(out_w, view) :]
        os.write(gate_w, b"!")  # only once everything was written

    thread = threading.Thread(target=writer)
    thread.start()
    assert pump.wait([gate_r], clock.monotonic() + 10) == set()
    thread.join()
    os.close(out_w)
    os.close(err_w)
    pump.drain(clock.monotonic() + 5)
    pump.close()
    assert kept(out) == big
    assert kept(err) == b"oops"
    assert len(chunks) >= 2


def test_a_fd_that_never_becomes_readable_is_returned_at_the_deadline(
    pipes: list[tuple[int, int]],
) -> None:
    (out_r, out_w), _, (gate_r, _gate_w) = pipes
    sink = StreamSink()
    pump = PipePump({out_r: sink}, on_output=lambda: None)
    os.write(out_w, b"still read")
    began = clock.monotonic()
    assert pump.wait([gate_r], began + 0.2) == {gate_r}
    assert clock.monotonic() - began >= 0.2
    # The deadline already passed: one look, no waiting, and the fd is pending again.
    assert pump.wait([gate_r], began) == {gate_r}
    pump.close()
    assert kept(sink) == b"still read"


def test_drain_without_deadline_reads_only_what_is_ready(pipes: list[tuple[int, int]]) -> None:
    (out_r, out_w), _, _ = pipes
    sink = StreamSink()
    pump = PipePump({out_r: sink}, on_output=lambda: None)
    os.write(out_w, b"ready")
    began = clock.monotonic()
    pump.drain(None)  # the writer is still open: it must not wait for end of file
    assert clock.monotonic() - began < 1.0
    os.write(out_w, b" later")
    os.close(out_w)
    pump.drain(clock.monotonic() + 5)
    pump.close()
    assert kept(sink) == b"ready later"


def test_cancellation_interrupts_a_wait_once(pipes: list[tuple[int, int]]) -> None:
    (out_r, _out_w), _, (gate_r, gate_w) = pipes
    cancel = Cancellation()
    try:
        pump = PipePump({out_r: StreamSink()}, on_output=lambda: None, cancel_fd=cancel.fd)
        cancel.cancel()
        with pytest.raises(TrialCancelled):
            pump.wait([gate_r], clock.monotonic() + 5)
        # The clean-up after a cancellation waits through the same pump: not cancelled again.
        os.write(gate_w, b"!")
        assert pump.wait([gate_r], clock.monotonic() + 5) == set()
        pump.close()
    finally:
        cancel.close()


def test_the_same_fd_can_be_waited_for_again(pipes: list[tuple[int, int]]) -> None:
    (out_r, _), _, (gate_r, _gate_w) = pipes
    pump = PipePump({out_r: StreamSink()}, on_output=lambda: None)
    for _ in range(3):  # each wait registers and unregisters it again
        assert pump.wait([gate_r], clock.monotonic() + 0.05) == {gate_r}
    pump.close()
