"""Readers and writers of record formats other than the text notation (JSON, ...)."""
