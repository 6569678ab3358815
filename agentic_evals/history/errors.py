"""What can go wrong with the history, as exceptions the commands turn into exit codes."""

from __future__ import annotations


class HistoryError(Exception):
    """The history cannot be opened, read or written; the message names the store and why."""


class HistoryUsageError(HistoryError):
    """A history URL or option that cannot work (invalid usage, exit 2)."""


class UnknownRunError(HistoryError):
    """A run reference (id, prefix, ``last``, ``last~N``) matches no recorded run."""


class AmbiguousRunError(UnknownRunError):
    """A run id prefix matches more than one recorded run; the message lists them."""


class UnknownTargetError(HistoryError):
    """``history trend`` was given an id that is neither a recorded case nor a claim."""


class DocumentError(ValueError):
    """A file that is not the document it should be: the message names the file and why."""


class ReportIndexError(DocumentError):
    """A report the history cannot index: the message names the file, pointer and rule."""
