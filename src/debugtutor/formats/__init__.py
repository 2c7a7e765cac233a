"""File formats more than one part of debugtutor reads: a foundation, so arenas share one reader instead of each
keeping its own.

- :mod:`~debugtutor.formats.socratic_sections`: the tagged sections of a Socratic Debugging Benchmark file (problem,
  numbered buggy code, bug description, fixes, unit tests, student description). The dialogue itself is the Socratic
  arena's.
"""
