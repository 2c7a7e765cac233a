"""The debugtutor command line."""
