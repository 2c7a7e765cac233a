"""Generate the built-in DebugEval sample: run ``python -m debugtutor.debugeval.make_sample [OUT]``.

The correct programs below (Python, and one each in C++ and Java) are the project's own. Bugs are injected with the
analysis package's mutation operators (over DebugBench's taxonomy), and every mutant is verified by execution on the
problem's examples (C++ and Java: compiled and run in batches) before it is used; the instances are then built by
the same code as DebugBench instances, so the sample exercises all four tasks in all three languages.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from debugtutor.analysis.clike.syntax_tree import CompiledLanguage
from debugtutor.analysis.examples import example_calls
from debugtutor.analysis.mutation import Mutant, mutate
from debugtutor.debugeval.build import BuildSettings, build_from_debugbench, write_build
from debugtutor.debugeval.debugbench import DebugBenchItem, major_of
from debugtutor.debugeval.records import LanguageName
from debugtutor.sandbox import LeetCodeRequest, TestReport, run

# (slug, description, examples, correct solution): small LeetCode-style problems written for this sample.
PROBLEMS: list[tuple[str, str, list[str], str]] = [
    (
        "count-evens-below",
        "Given a list of integers nums and an integer limit, return how many even numbers in nums are below limit.",
        [
            "Input: nums = [1,2,4,7,8], limit = 8\nOutput: 2",
            "Input: nums = [0,3,6], limit = 10\nOutput: 2",
            "Input: nums = [5,9], limit = 3\nOutput: 0",
        ],
        """class Solution:
    def countEvens(self, nums: List[int], limit: int) -> int:
        count = 0
        for value in nums:
            if value % 2 == 0 and value < limit:
                count += 1
        return count
""",
    ),
    (
        "running-maximum",
        "Given a list of integers nums, return a list whose i-th entry is the largest of nums[0..i].",
        [
            "Input: nums = [3,1,4,1,5]\nOutput: [3,3,4,4,5]",
            "Input: nums = [2,2,1]\nOutput: [2,2,2]",
            "Input: nums = [7]\nOutput: [7]",
        ],
        """class Solution:
    def runningMax(self, nums: List[int]) -> List[int]:
        result = []
        best = nums[0]
        for value in nums:
            if value > best:
                best = value
            result.append(best)
        return result
""",
    ),
    (
        "reverse-words",
        "Given a sentence s of words separated by single spaces, return the sentence with the words in reverse order.",
        [
            'Input: s = "the sky is blue"\nOutput: "blue is sky the"',
            'Input: s = "hello"\nOutput: "hello"',
            'Input: s = "a b"\nOutput: "b a"',
        ],
        """class Solution:
    def reverseWords(self, s: str) -> str:
        words = s.split(" ")
        left, right = 0, len(words) - 1
        while left < right:
            words[left], words[right] = words[right], words[left]
            left += 1
            right -= 1
        return " ".join(words)
""",
    ),
    (
        "sum-of-digits-until-single",
        "Given a non-negative integer num, repeatedly add its digits until one digit is left and return it.",
        ["Input: num = 38\nOutput: 2", "Input: num = 0\nOutput: 0", "Input: num = 9875\nOutput: 2"],
        """class Solution:
    def addDigits(self, num: int) -> int:
        while num >= 10:
            total = 0
            while num > 0:
                total += num % 10
                num //= 10
            num = total
        return num
""",
    ),
    (
        "first-unique-character",
        "Given a string s, return the index of its first character that occurs only once, or -1 if there is none.",
        ['Input: s = "leetcode"\nOutput: 0', 'Input: s = "loveleetcode"\nOutput: 2', 'Input: s = "aabb"\nOutput: -1'],
        """class Solution:
    def firstUniqChar(self, s: str) -> int:
        counts = {}
        for ch in s:
            counts[ch] = counts.get(ch, 0) + 1
        for index in range(len(s)):
            if counts[s[index]] == 1:
                return index
        return -1
""",
    ),
    (
        "longest-plateau",
        "Given a list of integers nums, return the length of the longest run of equal neighbours and the value that "
        "run holds, as [length, value]; among runs of the same length the first one counts.",
        [
            "Input: nums = [1,1,2,2,2,3]\nOutput: [3,2]",
            "Input: nums = [5]\nOutput: [1,5]",
            "Input: nums = [4,4,1,1]\nOutput: [2,4]",
        ],
        """class Solution:
    def longestPlateau(self, nums: List[int]) -> List[int]:
        best_length = 1
        best_value = nums[0]
        run = 1
        index = 1
        while index < len(nums):
            if nums[index] == nums[index - 1]:
                run += 1
            else:
                run = 1
            if run > best_length:
                best_length = run
                best_value = nums[index]
            index += 1
        answer = [best_length, best_value]
        return answer
""",
    ),
    (
        "balance-of-brackets",
        "Given a string s of the characters '(' and ')', return the fewest characters to add so every bracket is "
        "matched.",
        ['Input: s = "())"\nOutput: 1', 'Input: s = "((("\nOutput: 3', 'Input: s = "()()"\nOutput: 0'],
        """class Solution:
    def minAddToMakeValid(self, s: str) -> int:
        open_count = 0
        unmatched_closing = 0
        position = 0
        while position < len(s):
            character = s[position]
            if character == "(":
                open_count += 1
            elif open_count > 0:
                open_count -= 1
            else:
                unmatched_closing += 1
            position += 1
        missing = open_count + unmatched_closing
        return missing
""",
    ),
]

# (language, slug, description, examples, correct solution): one small problem per compiled language, so the
# sample shows every task in C++ and Java too while a whole offline run over it stays a few minutes (each C++/Java
# answer compiles and runs programs; the Python problems above cost a fraction of that).
COMPILED_PROBLEMS: list[tuple[CompiledLanguage, str, str, list[str], str]] = [
    (
        "cpp",
        "count-strict-peaks",
        "Given an array of integers nums, return how many positions i with 0 < i < n - 1 hold a value larger than "
        "both of its neighbours.",
        [
            "Input: nums = [1,3,2,4,1]\nOutput: 2",
            "Input: nums = [5,5,5]\nOutput: 0",
            "Input: nums = [2,9,4,4,7,1]\nOutput: 2",
        ],
        """class Solution {
public:
    int countPeaks(vector<int>& nums) {
        int n = nums.size();
        int peaks = 0;
        for (int i = 1; i + 1 < n; i++) {
            if (isPeak(nums, i)) {
                peaks++;
            }
        }
        return peaks;
    }

private:
    bool isPeak(vector<int>& nums, int index) {
        int left = nums[index - 1];
        int right = nums[index + 1];
        return nums[index] > left && nums[index] > right;
    }
};
""",
    ),
    (
        "java",
        "longest-repeated-run",
        "Given a string s, return the length of its longest block of one character repeated back to back.",
        [
            'Input: s = "aaabbc"\nOutput: 3',
            'Input: s = "abcd"\nOutput: 1',
            'Input: s = "xyyyyz"\nOutput: 4',
        ],
        """class Solution {
    public int longestRun(String s) {
        if (s.length() == 0) {
            return 0;
        }
        int best = 1;
        int run = 1;
        char previous = s.charAt(0);
        for (int i = 1; i < s.length(); i++) {
            char current = s.charAt(i);
            if (current == previous) {
                run++;
            } else {
                run = 1;
            }
            best = Math.max(best, run);
            previous = current;
        }
        return best;
    }
}
""",
    ),
]

_MULTIPLE_NAMES = {2: "double", 3: "triple", 4: "quadruple"}


def _runner(examples: list[str], code: str) -> Callable[[str], TestReport]:
    calls = example_calls(examples, code)

    def run_examples(source: str) -> TestReport:
        return run(LeetCodeRequest(code=source, calls=calls))

    return run_examples


def _item(
    slug: str, description: str, examples: list[str], oracle: str, mutant: Mutant, language: LanguageName = "python"
) -> DebugBenchItem:
    order = len(mutant.operators)
    minor = _MULTIPLE_NAMES[order] if mutant.category == "multiple" else (mutant.bug_types[0] or "other error")
    try:
        major = major_of(minor)
    except ValueError:
        major = f"{mutant.category} error"
    return DebugBenchItem(
        language=language, minor_type=minor, major_type=major, slug=slug, description=description,
        examples=examples, oracle_code=oracle, buggy_code=mutant.source, level="easy",
    )  # fmt: skip


def sample_items(seed: int = 0) -> list[DebugBenchItem]:
    """Verified mutants of every sample problem: single bugs of each category and double bugs."""
    items: list[DebugBenchItem] = []
    for slug, description, examples, oracle in PROBLEMS:
        run = _runner(examples, oracle)
        for category in ("syntax", "reference", "logic"):
            for mutant in mutate(oracle, run, categories=[category], order=1, count=2, seed=seed):
                items.append(_item(slug, description, examples, oracle, mutant))
        for mutant in mutate(oracle, run, order=2, count=2, seed=seed):
            items.append(_item(slug, description, examples, oracle, mutant))
    for language, slug, description, examples, oracle in COMPILED_PROBLEMS:
        calls = example_calls(examples, oracle, language)
        for category in ("syntax", "reference", "logic"):
            for mutant in mutate(oracle, calls, categories=[category], order=1, count=2, seed=seed, language=language):
                items.append(_item(slug, description, examples, oracle, mutant, language))
        for mutant in mutate(oracle, calls, order=2, count=2, seed=seed, language=language):
            items.append(_item(slug, description, examples, oracle, mutant, language))
    return items


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    out = Path(args[0]) if args else Path(__file__).resolve().parents[1] / "samples" / "debugeval"
    settings = BuildSettings(
        seed=0, localization_per_type=3, review_per_category=4, repair_extra_tests=6,
        repair_languages=("python", "cpp", "java"),
    )  # fmt: skip
    task124, task3, report = build_from_debugbench(sample_items(), settings)
    write_build(out, task124, task3, report)
    print(f"wrote {out}: {report.counts}")


if __name__ == "__main__":
    main()
