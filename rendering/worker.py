"""A drawing process (``python -m rendering.worker``), started by :mod:`rendering.painter`.

It reads calls from its standard input and writes their answers to its standard output,
each a pickle after its length (4 bytes, big-endian). A call is ``(number, first,
function)``, the function with its arguments bound (``functools.partial``); the answer
is ``(number, True, result)`` or ``(number, False, exception)``. Of the calls sent and
not yet drawn, it draws the ones marked ``first`` (a hand a member's click waits on)
ahead of the others (tables' pictures), each kind in the order sent. It imports only
what the calls need, so it stays small, and it ends when its input ends: when the bot's
process ends, however it ends.
"""

from __future__ import annotations

import pickle
import queue
import struct
import sys
import threading
from collections import deque
from collections.abc import Callable
from typing import Any, BinaryIO

HEADER = struct.Struct(">I")

Call = tuple[int, Callable[[], Any]]


class Inbox:
    """The calls sent and not yet drawn. A thread reads them from ``calls`` as they come
    (so one sent while a picture is drawn is known before the next is chosen); the
    drawing takes them from it, the ones marked first ahead."""

    def __init__(self, calls: BinaryIO) -> None:
        self._first: deque[Call] = deque()
        self._rest: deque[Call] = deque()
        self._ended = False
        self._arrived: queue.SimpleQueue[tuple[bool, Call] | None] = queue.SimpleQueue()
        threading.Thread(target=self._read, args=(calls,), daemon=True).start()

    def _read(self, calls: BinaryIO) -> None:
        """Until the input ends, or a call cannot be read: then the process ends once
        it has drawn what it has, and the bot draws the rest itself (``WorkerGone``)."""
        try:
            while len(header := calls.read(HEADER.size)) == HEADER.size:
                number, first, call = pickle.loads(calls.read(HEADER.unpack(header)[0]))
                self._arrived.put((first, (number, call)))
        finally:
            self._arrived.put(None)

    def next(self) -> Call | None:
        """The call to draw now, waiting for one if none was sent; None once the input
        has ended and every call is drawn."""
        if not (self._first or self._rest or self._ended):
            self._sort(self._arrived.get())
        while not self._ended:
            try:
                self._sort(self._arrived.get_nowait())
            except queue.Empty:
                break
        if self._first:
            return self._first.popleft()
        return self._rest.popleft() if self._rest else None

    def _sort(self, arrived: tuple[bool, Call] | None) -> None:
        if arrived is None:
            self._ended = True
        else:
            first, call = arrived
            (self._first if first else self._rest).append(call)


def serve(calls: BinaryIO, answers: BinaryIO) -> None:
    inbox = Inbox(calls)
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
    serve(sys.stdin.buffer, answers)


if __name__ == "__main__":
    main()
