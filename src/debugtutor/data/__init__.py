"""Public datasets at pinned versions: the registry, fetching into a cache, and finding a dataset folder to read.

Arenas call :func:`dataset_path` to turn a ``--data`` option (or its absence) into the folder to read, and
:func:`dataset_checksum` to record in a run's manifest exactly which data it read.
"""

from debugtutor.data.checksum import dataset_checksum
from debugtutor.data.fetch import FetchResult, dataset_path, fetch_dataset, fetched_path
from debugtutor.data.registry import MIRROR_ENV_VAR, REGISTRY, DatasetEntry, LayoutPart, get_entry

__all__ = [
    "MIRROR_ENV_VAR",
    "REGISTRY",
    "DatasetEntry",
    "FetchResult",
    "LayoutPart",
    "dataset_checksum",
    "dataset_path",
    "fetch_dataset",
    "fetched_path",
    "get_entry",
]
