"""``python -m tarotnotation``: the ``tarot`` command (see ``tarot --help``)."""

from tarotnotation.cli.app import main

if __name__ == "__main__":
    main()
