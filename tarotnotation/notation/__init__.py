"""The Tarot text notation: the reader (Lark grammar -> records) and the canonical writer."""
