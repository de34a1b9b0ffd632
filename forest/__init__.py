"""forest: learn a site's article layout without labels, then extract its pages."""
