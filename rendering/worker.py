"""A drawing process (``python -m rendering.worker``), started by :mod:`rendering.painter`.

It reads calls from its standard input and writes their answers to its standard output,
each a pickle after its length (4 bytes, big-endian). A call is ``(number, first,
function)``, the function with its arguments bound (``functools.partial``); the answer
is ``(number, True, result)`` or ``(number, False, exception)``. Before each call it
takes in every call already sent, and draws the ones marked ``first`` (a hand a member's
click waits on) ahead of the others (tables' pictures), each kind in the order sent. It
imports only what the calls need, so it stays small, and it ends when its input ends:
when the bot's process ends, however it ends.
"""

from __future__ import annotations

import os
import pickle
import select
import struct
import sys
from collections import deque
from collections.abc import Callable
from typing import Any, BinaryIO

HEADER = struct.Struct(">I")

Call = tuple[int, Callable[[], Any]]


class Inbox:
    """The calls sent and not yet drawn, read from the file descriptor ``source``."""

    def __init__(self, source: int) -> None:
        self.source = source
        self.first: deque[Call] = deque()
        self.rest: deque[Call] = deque()
        self.ended = False
        self._unread = bytearray()

    def next(self) -> Call | None:
        """The call to draw now, waiting for one if none was sent; None once the input
        has ended and every call is drawn."""
        self._take(wait=False)
        while not (self.first or self.rest or self.ended):
            self._take(wait=True)
        if self.first:
            return self.first.popleft()
        return self.rest.popleft() if self.rest else None

    def _take(self, wait: bool) -> None:
        """Everything sent so far (with ``wait``, at least something, or the end)."""
        while not self.ended and (wait or select.select([self.source], [], [], 0)[0]):
            data = os.read(self.source, 1 << 16)
            if not data:
                self.ended = True
            self._unread += data
            wait = False
        while len(self._unread) >= HEADER.size:
            size = HEADER.unpack_from(self._unread)[0]
            if len(self._unread) < HEADER.size + size:
                break
            number, first, call = pickle.loads(self._unread[HEADER.size : HEADER.size + size])
            del self._unread[: HEADER.size + size]
            (self.first if first else self.rest).append((number, call))


def serve(source: int, answers: BinaryIO) -> None:
    inbox = Inbox(source)
    while (taken := inbox.next()) is not None:
        number, call = taken
        try:
            answer = (number, True, call())
        except Exception as error:  # told to the caller, whose picture it was
            answer = (number, False, error)
        data = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
        answers.write(HEADER.pack(len(data)) + data)
        answers.flush()


def main() -> None:
    answers = sys.stdout.buffer
    sys.stdout = sys.stderr  # nothing printed may mix with the answers
    serve(sys.stdin.fileno(), answers)


if __name__ == "__main__":
    main()
