"""SQLite storage of site wrappers, with history."""
