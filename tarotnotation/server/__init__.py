"""The game server: ``tarot serve``'s store, daily deal, players' tokens, leaderboards and
limits (docs/serve.md)."""
