"""The whole test run on another date: `make test TEST_CLOCK=2027-12-31T23:58:00Z` (or any ISO
moment). `tests/conftest.py` turns the moment into TEST_CLOCK_SHIFT (seconds from the real
clock) and puts this folder first on PYTHONPATH, so that every Python process of the run (the
pytest workers and the gunicorn servers the tests start) loads this module at start-up and
moves its clock by the same shift with time-machine; the clock goes on ticking from there.
Browsers keep the real clock, as a phone's differs from a server's."""

import os

if os.environ.get("TEST_CLOCK_SHIFT"):
    import time

    import time_machine

    time_machine.travel(time.time() + float(os.environ["TEST_CLOCK_SHIFT"]), tick=True).start()
    # time-machine's clock ticks from its first reading, not from start(): read it now, or
    # this process's clock would lag the others' by the time to its first reading (a
    # server's imports: a session signed by one gunicorn read "in the future" by another)
    time.time()
