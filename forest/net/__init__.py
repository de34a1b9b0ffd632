"""The network layer: fetching pages politely (httpx) and reading feeds (feedparser)."""
