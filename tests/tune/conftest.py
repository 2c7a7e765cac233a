"""A tiny random model for the fine-tuning tests (built once per session, no download)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def tiny_base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from debugtutor.tune.tiny import make_tiny_model

    return make_tiny_model(tmp_path_factory.mktemp("tiny") / "base")
