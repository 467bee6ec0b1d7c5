"""Ctrl-C reaches solvers that run in native code.

A CP-SAT or HiGHS solve runs in C++ without returning to Python, so Python's own SIGINT
handler (which raises :class:`KeyboardInterrupt`) runs only after the solve has used its whole
time limit. Inside :func:`stoppable`, the signal also wakes a watcher thread (through
:func:`signal.set_wakeup_fd`, written by the C-level handler even while the main thread is in
native code) that asks the solver to stop; the solve returns at once and Python raises
:class:`KeyboardInterrupt` where it left off, so a cut-short answer never becomes a result.

CP-SAT's own SIGINT handling is switched off by the back-end: it turns Ctrl-C into an ordinary
``timeout`` answer and leaves SIGINT at the system default (the next Ctrl-C kills the process
without cleanup).
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

#: Seconds between repeated stop requests (a stop asked before the solver started is lost).
RETRY_S = 0.1

_lock = threading.Lock()
_stoppers: list[Callable[[], None]] = []
_write_fd: int | None = None


def _watch(read_fd: int) -> None:
    while True:
        if signal.SIGINT not in os.read(read_fd, 64):
            continue
        with _lock:
            targets = list(_stoppers)
        while targets:
            for stop in targets:
                stop()
            time.sleep(RETRY_S)
            with _lock:
                targets = [s for s in targets if any(s is t for t in _stoppers)]


def _wakeup_fd() -> int:
    """The write end of the watcher's pipe (the watcher starts on first use)."""
    global _write_fd
    with _lock:
        if _write_fd is None:
            read_fd, write_fd = os.pipe()
            os.set_blocking(write_fd, False)
            threading.Thread(target=_watch, args=(read_fd,), name="packgap-interrupt", daemon=True).start()
            _write_fd = write_fd
        return _write_fd


@contextmanager
def stoppable(stop: Callable[[], None]) -> Iterator[None]:
    """Run the block with ``stop`` called (from another thread) when SIGINT arrives.

    Only in the main thread with Python's SIGINT handler installed: elsewhere signals do not
    reach Python at all, and the block runs as it is.
    """
    if threading.current_thread() is not threading.main_thread() or not callable(signal.getsignal(signal.SIGINT)):
        yield
        return
    asked = threading.Event()

    def stop_once_asked() -> None:
        asked.set()
        stop()

    previous = signal.set_wakeup_fd(_wakeup_fd(), warn_on_full_buffer=False)
    with _lock:
        _stoppers.append(stop_once_asked)
    try:
        yield
    finally:
        with _lock:
            _stoppers.remove(stop_once_asked)
        signal.set_wakeup_fd(previous)
    if asked.is_set():
        # A solver that runs Python callbacks in this thread (highspy) may take the
        # KeyboardInterrupt inside one and drop it; the stopped answer must still not count.
        raise KeyboardInterrupt


@contextmanager
def sigint_restored() -> Iterator[None]:
    """Run the block and put Python's SIGINT handler back afterwards, for a solver that installs
    its own during a solve and leaves the system default behind (Xpress 9.9, seen with strace:
    a Ctrl-C after its solve would end the process, exit 130, without cleanup). Only in the main
    thread."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    handler = signal.getsignal(signal.SIGINT)
    try:
        yield
    finally:
        if handler is not None:
            signal.signal(signal.SIGINT, handler)
