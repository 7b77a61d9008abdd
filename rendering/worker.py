"""A drawing process (``python -m rendering.worker``), started by :mod:`rendering.painter`.

It reads calls from its standard input and writes their answers to its standard output,
each a pickle after its length (4 bytes, big-endian). A call is ``(number, function)``,
the function with its arguments bound (``functools.partial``); the answer is ``(number,
True, result)`` or ``(number, False, exception)``. It draws the calls in the order they
come: which picture goes first is the bot's choice (:class:`rendering.painter.Worker`
sends it a few calls at a time, ``IN_FLIGHT``, the next as one is answered, a member's
hand ahead of tables' pictures), so the worker needs no queue of its own and no thread
to fill one. A reading thread beside the drawing would cost the worker a good share of
its CPU again in handing the interpreter between the two.

It imports only what the calls need, so it stays small, and it ends quietly when its
input ends or its answers can no longer be written (when the bot's process ends, however
it ends), or when it holds a call it cannot read: then the bot draws that call itself and
starts another worker.
"""

from __future__ import annotations

import os
import pickle
import signal
import struct
import sys
from typing import BinaryIO

HEADER = struct.Struct(">I")


def serve(calls: BinaryIO, answers: BinaryIO) -> None:
    while len(header := calls.read(HEADER.size)) == HEADER.size:
        try:
            number, call = pickle.loads(calls.read(HEADER.unpack(header)[0]))
        except Exception:  # a module it cannot import, a cut-off call: see above
            return
        try:
            answer = (number, True, call())
        except Exception as error:  # told to the caller, whose picture it was
            answer = (number, False, error)
        data = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
        try:
            answers.write(HEADER.pack(len(data)) + data)
            answers.flush()
        except BrokenPipeError:  # the bot is gone (killed): nobody to answer, nothing to say
            _discard(answers)
            return


def _discard(answers: BinaryIO) -> None:
    """Send what is left for the closed pipe nowhere, so that the interpreter's own flush
    at exit does not complain about the pipe again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, answers.fileno())
    finally:
        os.close(devnull)


def main() -> None:
    # Ctrl-C in a terminal reaches every process of its group: the bot stops its workers
    # itself (the worker also ends with its input), so the worker ignores it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    answers = sys.stdout.buffer
    sys.stdout = sys.stderr  # nothing printed may mix with the answers
    serve(sys.stdin.buffer, answers)


if __name__ == "__main__":
    main()
