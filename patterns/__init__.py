"""FOREST node scoring, structural patterns and ranking."""
