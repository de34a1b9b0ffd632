"""Evaluation: datasets, metrics, baselines, peers, benchmarks."""
