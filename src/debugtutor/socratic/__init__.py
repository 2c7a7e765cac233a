"""The Socratic debugging arena: the Socratic Debugging Benchmark's files, tutoring and evaluation.

For now this holds the reader of a benchmark file's sections (problem, buggy code, bug description, fixes, unit
tests, student description), which benches and the analysis tests use.
"""

from __future__ import annotations

from debugtutor.socratic.sections import (
    SocraticSections,
    parse_sections,
    read_sections,
    strip_line_numbers,
)

__all__ = ["SocraticSections", "parse_sections", "read_sections", "strip_line_numbers"]
