"""The service layer: learn and extract from pages, feeds and URLs, with the store; what the CLI calls."""
