"""Play: moves submitted and applied, automatic moves, hosting games, turn clocks, deadlines, timeouts,
vacations and the seat's own settings."""
