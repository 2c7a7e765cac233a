"""Web front ends (extra ``web``).

- :func:`debugtutor.web.app.create_app`: the web app of ``debugtutor serve``: tutor, dialogue annotation, manual
  evaluation, StudentSyn expert studies and the runs, over one SQLite database.
- :func:`create_viewer_app`: the read-only run viewer alone (``debugtutor runs serve``); it reads only what the
  runner wrote and never calls a model or runs code.

The page modules' logic (``dialogues``, ``tutoring``, ``manual_eval``, ``expert_studies``, ``studies``) needs no
web framework, so it is tested without a server.
"""

from __future__ import annotations

from debugtutor.web.viewer import create_viewer_app

__all__ = ["create_viewer_app"]
