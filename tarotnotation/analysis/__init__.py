"""Card-play analysis."""
