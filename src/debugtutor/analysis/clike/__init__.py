"""The C++ and Java back-ends of the analysis engine: parsing with tree-sitter, compiler diagnostics, batched
compile-and-run of program variants with coverage, and the edit operators, behind the same entry points as Python
(:func:`debugtutor.analysis.static.check`, :func:`debugtutor.analysis.edits.candidate_edits`,
:func:`debugtutor.analysis.mutation.mutate`, :func:`debugtutor.analysis.repair.arepair`,
:func:`debugtutor.analysis.engine.analyze`, each with ``language="cpp"`` or ``"java"``)."""
