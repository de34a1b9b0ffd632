"""Learning a site: FOREST's keywords and patterns over sample pages, compiled into a Wrapper."""
