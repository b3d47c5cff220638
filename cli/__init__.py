"""The tarot command-line tool (installed as tarotnotation.cli; a thin layer over the library)."""
