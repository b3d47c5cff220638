"""The Lark grammar of the Tarot notation (installed as tarotnotation.grammar)."""
