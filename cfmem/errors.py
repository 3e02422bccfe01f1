"""The user-facing error every cfmem command reports as one line."""

from __future__ import annotations


class CfmemError(Exception):
    """A user-facing error: one line, with a location where one is known.

    ``location`` is a ``file:line:col``, a file, or the option at fault
    (``--seed``); the command line prints ``cfmem: <location>: error: <message>``.
    """

    def __init__(self, message: str, location: str | None = None):
        super().__init__(message)
        self.message = message
        self.location = location

    def __str__(self) -> str:
        return f"{self.location}: error: {self.message}" if self.location else f"error: {self.message}"
