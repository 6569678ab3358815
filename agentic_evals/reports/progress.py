"""Progress of a run on stderr: a line per finished case, and a live status line on a terminal.

``--progress auto`` prints a line per case as it finishes (outcome, trials,
time) and, when stderr is a terminal, keeps a status line under them (cases
done of all, trials running, time elapsed) redrawn in place; ``plain`` prints
the case lines only; ``none`` prints nothing. Lines come out in fixture order
whatever ``--jobs`` is: a case finished early waits for the cases before it,
so the output is the same as a serial run's. It goes to stderr, so that
``-o -`` keeps stdout clean JSON.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import IO, TYPE_CHECKING, Final

import click

from agentic_evals import clock
from agentic_evals.judge.cases import case_outcome
from agentic_evals.reports.terminal import ProgressMode, is_terminal, terminal_width

if TYPE_CHECKING:
    from agentic_evals.reports.model import TrialReport

TICK_SECONDS: Final = 1.0
"""How often the status line's elapsed time is redrawn."""
_CLEAR: Final = "\r\x1b[K"
_COLOURS: Final = {"PASS": "green", "FAIL": "red", "BLOCKED": "yellow", "NOT_TESTED": "magenta"}


class Progress:
    """A :class:`~agentic_evals.runner.observe.RunObserver` that prints to ``stream``.

    Use as a context manager: leaving it stops the status line and clears it.
    """

    def __init__(
        self,
        stream: IO[str],
        *,
        cases: int,
        mode: ProgressMode = "auto",
        colour: bool = False,
        width: int = 40,
    ) -> None:
        self._stream = stream
        self._total = cases
        self._lines = mode != "none"
        self._live = mode == "auto" and is_terminal(stream)
        self._colour = colour
        self._width = width
        self._lock = threading.Lock()
        self._pending: dict[int, str] = {}
        self._next = 0
        self._done = 0
        self._running = 0
        self._started = clock.monotonic()
        self._stop = threading.Event()
        self._ticker: threading.Thread | None = None
        self._shown = False

    def __enter__(self) -> Progress:
        if self._live:
            self._ticker = threading.Thread(target=self._tick, name="progress", daemon=True)
            self._ticker.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._ticker is not None:
            self._ticker.join()
        with self._lock:
            self._erase()

    def trial_started(self, position: int, number: int) -> None:
        """A trial started: one more running."""
        with self._lock:
            self._running += 1
            self._redraw()

    def trial_finished(self, position: int, number: int) -> None:
        """A trial ended: one fewer running."""
        with self._lock:
            self._running = max(0, self._running - 1)
            self._redraw()

    def case_finished(self, position: int, name: str, trials: Sequence[TrialReport]) -> None:
        """Print the case's line once every case before it has been printed."""
        line = self.case_line(position, name, trials)
        with self._lock:
            self._done += 1
            if not self._lines:
                return
            self._pending[position] = line
            self._erase()
            while self._next in self._pending:
                self._stream.write(self._pending.pop(self._next) + "\n")
                self._next += 1
            self._redraw()
            self._stream.flush()

    def case_line(self, position: int, name: str, trials: Sequence[TrialReport]) -> str:
        """``[ 3/11] PASS       name   2/2 trials  0.41 s``."""
        outcomes = [trial.outcome for trial in trials]
        outcome, flaky = case_outcome(outcomes)
        passed = sum(1 for o in outcomes if o == "PASS")
        seconds = sum(trial.duration_ms for trial in trials) / 1000
        digits = len(str(self._total))
        mark = outcome.ljust(10)
        if self._colour:
            mark = click.style(mark, fg=_COLOURS.get(outcome), bold=True)
        shown = name.ljust(self._width)
        notes = "  flaky" if flaky else ""
        kept = sum(1 for trial in trials if trial.reused)
        if kept:
            notes += f"  {kept} kept"
        return (
            f"[{position + 1:>{digits}}/{self._total}] {mark} {shown} "
            f"{passed}/{len(outcomes)} trials  {seconds:.2f} s{notes}"
        )

    def status_line(self) -> str:
        """``3/11 cases done, 2 trials running, 12 s elapsed``."""
        elapsed = clock.monotonic() - self._started
        return (
            f"{self._done}/{self._total} cases done, {self._running} trial(s) running, "
            f"{elapsed:.0f} s elapsed"
        )

    def _redraw(self) -> None:
        if not self._live:
            return
        columns = terminal_width(self._stream)
        self._stream.write(_CLEAR + self.status_line()[: max(1, columns - 1)])
        self._stream.flush()
        self._shown = True

    def _erase(self) -> None:
        if self._shown:
            self._stream.write(_CLEAR)
            self._stream.flush()
            self._shown = False

    def _tick(self) -> None:
        while not self._stop.wait(TICK_SECONDS):
            with self._lock:
                self._redraw()
