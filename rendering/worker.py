"""A drawing process (``python -m rendering.worker``), started by :mod:`rendering.painter`.

It reads calls from its standard input and writes their results to its standard output,
one after the other, each a pickle after its length (4 bytes, big-endian). A call is a
function and its arguments (``functools.partial``); the answer is ``(True, result)`` or
``(False, exception)``. It imports only what the calls need, so it stays small, and it
ends when its input ends: when the bot's process ends, however it ends.
"""

from __future__ import annotations

import pickle
import struct
import sys
from typing import BinaryIO

HEADER = struct.Struct(">I")


def serve(calls: BinaryIO, answers: BinaryIO) -> None:
    while header := calls.read(HEADER.size):
        if len(header) < HEADER.size:
            return
        call = pickle.loads(calls.read(HEADER.unpack(header)[0]))
        try:
            answer = (True, call())
        except Exception as error:  # told to the caller, whose picture it was
            answer = (False, error)
        data = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
        answers.write(HEADER.pack(len(data)) + data)
        answers.flush()


def main() -> None:
    answers = sys.stdout.buffer
    sys.stdout = sys.stderr  # nothing printed may mix with the answers
    serve(sys.stdin.buffer, answers)


if __name__ == "__main__":
    main()
