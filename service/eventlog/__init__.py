"""The log: database tables, the append-only event store and its migrations. The truth of every game."""
