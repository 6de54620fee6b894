"""A request the app refuses: the HTTP status it answers and the reason, in words."""

from __future__ import annotations


class Refusal(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status, self.message = status, message
