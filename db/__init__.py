"""Storage: SQLModel tables, async engines, the SQL event store and its migrations (DESIGN §7)."""
