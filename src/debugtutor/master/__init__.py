"""MASTER: synthesize debugging problems with Quizzer -> Learner -> Teacher agents and fine-tune a model on them.

The DebugEval paper's second half (``../reference/debugeval-format.md`` A6, B4), rebuilt on debugtutor's foundations
and checked by execution at every step: the Quizzer's problems (:mod:`debugtutor.master.quizzer`), the Learner's
answers (:mod:`debugtutor.master.learner`) and the Teacher's explanations (:mod:`debugtutor.master.teacher`); the
pipeline runs through the runner (:mod:`debugtutor.master.synth`), writes SFT data (:mod:`debugtutor.master.sft`)
and is trained and compared with :mod:`debugtutor.master.ablation`.
"""
