"""A request the app refuses, with the HTTP status it answers (401/403 whose seat, 404, 409
stale or waiting, 413 too large, 422 the rule's message, 429 too many) and the reason, in
words: nothing was changed."""

from __future__ import annotations


class Refusal(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status, self.message = status, message
