"""Python program analysis: static checks, execution facts, fault localization, diffs, mutation and repair search.

A foundation: it never imports an arena, and runs student or dataset code only through :mod:`debugtutor.sandbox`.
Each line below re-exports one public name (``import X as X`` marks it as public), so parts can add lines freely.
"""

from debugtutor.analysis.diff import Change as Change
from debugtutor.analysis.diff import ProgramDiff as ProgramDiff
from debugtutor.analysis.diff import diff_programs as diff_programs
from debugtutor.analysis.edits import Edit as Edit
from debugtutor.analysis.edits import candidate_edits as candidate_edits
from debugtutor.analysis.engine import AnalysisBudget as AnalysisBudget
from debugtutor.analysis.engine import AnalysisReport as AnalysisReport
from debugtutor.analysis.engine import aanalyze as aanalyze
from debugtutor.analysis.engine import analyze as analyze
from debugtutor.analysis.examples import example_calls as example_calls
from debugtutor.analysis.examples import example_method as example_method
from debugtutor.analysis.examples import oracle_tests as oracle_tests
from debugtutor.analysis.examples import parse_example as parse_example
from debugtutor.analysis.examples import perturb_calls as perturb_calls
from debugtutor.analysis.execution import ExecutionFacts as ExecutionFacts
from debugtutor.analysis.execution import collect_execution_facts as collect_execution_facts
from debugtutor.analysis.execution import split_unit_tests as split_unit_tests
from debugtutor.analysis.leetcode import ListNode as ListNode
from debugtutor.analysis.leetcode import TreeNode as TreeNode
from debugtutor.analysis.leetcode import linked_to_list as linked_to_list
from debugtutor.analysis.leetcode import list_to_linked as list_to_linked
from debugtutor.analysis.leetcode import list_to_tree as list_to_tree
from debugtutor.analysis.leetcode import tree_to_list as tree_to_list
from debugtutor.analysis.localization import SuspiciousLine as SuspiciousLine
from debugtutor.analysis.localization import localize as localize
from debugtutor.analysis.mutation import Mutant as Mutant
from debugtutor.analysis.mutation import mutate as mutate
from debugtutor.analysis.repair import Repair as Repair
from debugtutor.analysis.repair import RepairBudget as RepairBudget
from debugtutor.analysis.repair import RepairSearch as RepairSearch
from debugtutor.analysis.repair import arepair as arepair
from debugtutor.analysis.static import LEETCODE_PREAMBLE as LEETCODE_PREAMBLE
from debugtutor.analysis.static import Diagnostic as Diagnostic
from debugtutor.analysis.static import check as check
from debugtutor.analysis.static import classify as classify
