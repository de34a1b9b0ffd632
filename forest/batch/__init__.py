"""Batches: many pages (files, directories, lists, WARC files) extracted on all cores, sites learned from the batch itself."""

from forest.batch.inputs import Inputs
from forest.batch.item import Item
from forest.batch.pages import Result
from forest.batch.run import Options, Summary, default_jobs, run_batch

__all__ = ["Inputs", "Item", "Options", "Result", "Summary", "default_jobs", "run_batch"]
