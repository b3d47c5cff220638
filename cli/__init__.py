"""The tarot command-line tool (installed as tarotnotation.cli; a thin layer over the library).

Importing the command line takes a moment (the rules, the formats, the solver): a Ctrl-C
or a SIGTERM that comes meanwhile ends the process at once with the README's status (130,
143), before anything was read or written, not with a traceback from the middle of an
import. :func:`tarotnotation.cli.app.main` puts the usual handlers back
(:func:`tarotnotation.cli.runner.install_signal_handlers`) before the command runs.
"""

from __future__ import annotations

import os
import signal
import sys


def _end_while_starting(signum: int, frame: object) -> None:
    os._exit(128 + signum)  # nothing is open yet: no temporary file, no worker


# Only in the ``tarot`` script itself: a program that imports the package keeps its own.
if os.path.basename(sys.argv[0] if sys.argv else "") == "tarot":
    for _sig in (signal.SIGINT, signal.SIGTERM):
        if signal.getsignal(_sig) in (signal.default_int_handler, signal.SIG_DFL):
            try:
                signal.signal(_sig, _end_while_starting)
            except ValueError:  # not the main thread (as threading would tell, unimported)
                break
