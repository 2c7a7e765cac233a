"""Web front ends over the run records (extra ``web``): a read-only viewer of runs and their reports.

The viewer reads only what the runner wrote (``manifest.json``, ``summary.json``, ``report.html``); it never calls a
model or runs code. Start it with ``debugtutor runs serve``.
"""

from __future__ import annotations

from debugtutor.web.viewer import create_viewer_app

__all__ = ["create_viewer_app"]
