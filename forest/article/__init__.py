"""The article as a structure (headings, lists, tables, quotes, code, figures, links) and its renderings."""
