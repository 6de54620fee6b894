"""A request refused, with the HTTP status the API answers (401/403 whose seat, 404, 409
stale or waiting, 422 the rule's message): nothing was changed."""


class Refusal(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status, self.message = status, message
