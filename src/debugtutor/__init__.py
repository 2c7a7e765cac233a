"""debugtutor: build and evaluate AI that teaches debugging."""

__version__ = "0.1.0"
