"""Training and reporting the block classifier on gold datasets (the product only loads and runs a model)."""
