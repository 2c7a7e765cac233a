"""Whole flows through every page, in headless Chromium against a real ``debugtutor serve`` on loopback.

One browser and one server for the module (contexts separate the people): a tutoring session that ends with the
tests passing and resumes after a restart; a dialogue written, exported and parsed back; two annotators editing the
same dialogue; a manual evaluation by two annotators and their kappa; a rating study and its table; the runs.
Set $DEBUGTUTOR_WEB_SCREENSHOTS to a folder to keep the README's screenshots.
"""

from __future__ import annotations

import csv
import io
import json
import re
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from debugtutor.metrics.agreement import cohen_kappa, fleiss_kappa
from debugtutor.samples import sample_dir
from debugtutor.socratic.dialogue import parse_dialogue_file

from .conftest import Server, open_as, screenshot

pytestmark = [pytest.mark.web, pytest.mark.slow]


def _cli(*args: str) -> str:
    result = subprocess.run(
        [sys.executable, "-m", "debugtutor.cli.main", *args], capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("web-flows")


@pytest.fixture(scope="module")
def server(workspace: Path) -> Iterator[Server]:
    runs = workspace / "runs"
    # two Socratic runs of the offline instructor (the benchmark's reader and the robust one) for /evaluate and /runs
    for parser in ("original", "robust"):
        _cli("socratic", "eval", "--limit", "3", "--metrics", "rougeL", "--parser", parser, "--runs-dir", str(runs),
             "--json")  # fmt: skip
    running = Server(workspace / "data", runs).start()
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="module")
def galleries(workspace: Path) -> list[Path]:
    """Two techniques' galleries of the built-in StudentSyn sample, written by the StudentSyn CLI itself."""
    folders = []
    for technique in ("symss-original", "behaviour-edits"):
        folder = workspace / f"gallery-{technique}"
        _cli("studentsyn", "generate", "--technique", technique, "--out", str(folder), "--no-pictures", "--json")
        folders.append(folder)
    return folders


def _wait_text(page: Any, selector: str, text: str) -> None:
    page.locator(selector, has_text=text).first.wait_for()


def test_tutoring_session_ends_with_tests_passing_and_resumes(browser: Any, server: Server, workspace: Path) -> None:
    page = open_as(browser, server.base, "student")
    screenshot(page, "home")
    page.goto(server.base + "/tutor")
    page.select_option("#builtin", "0_0_sum_of_evens_socratic_dialogue")
    page.click("text=Start tutoring")
    page.wait_for_url(re.compile(r".*/tutor/[0-9a-f]{16}$"))
    session_url = page.url

    page.click("#run-tests")
    _wait_text(page, "#run-summary", "1 of 4 tests pass")
    rows = page.locator("#test-results tbody tr")
    assert rows.count() == 4
    first = [rows.nth(0).locator("td").nth(i).inner_text() for i in range(4)]
    assert first == ["assert sum_evens([1, 2, 3, 4]) == 6", "failed", "4", "6"]

    page.fill("#message", "It returns 4 instead of 6 for [1, 2, 3, 4].")
    page.click("#send")
    page.locator(".msg.student").first.wait_for()
    page.locator(".msg.instructor").nth(1).wait_for()

    # fix the bug in the editor with the keyboard: line 4 ends with "== 1:"
    page.locator(".CodeMirror-line").nth(3).click()
    page.keyboard.press("End")
    page.keyboard.press("Backspace")
    page.keyboard.press("Backspace")
    page.keyboard.type("0:")
    page.click("#run-tests")
    _wait_text(page, "#run-summary", "All 4 tests pass.")
    page.fill("#message", "I changed the condition to n % 2 == 0.")
    page.click("#send")
    _wait_text(page, ".msg.instructor", "All the tests pass now")
    assert page.inner_text("#test-status") == "All 4 tests pass"
    assert page.locator(".msg.student .edit").count() == 1  # the tutor saw the edit
    screenshot(page, "tutor")

    with page.expect_download() as download:
        page.click("#export")
    dialogue = parse_dialogue_file(Path(download.value.path()).read_text(), name="0_0_tutoring_socratic_dialogue")
    assert [turn.speaker for turn in dialogue.turns] == ["student", "instructor"] * 2
    assert dialogue.turns[2].code is not None and "n % 2 == 0" in dialogue.turns[2].code
    assert "n % 2 == 1" in dialogue.bug_code

    server.restart()
    page.goto(session_url)
    assert page.locator(".msg").count() == 4  # the conversation is back
    assert "n % 2 == 0" in page.evaluate("window.tutorEditor.getValue()")
    page.fill("#message", "Thanks!")
    page.click("#send")
    page.locator(".msg.instructor").nth(2).wait_for()
    page.context.close()


FIRST_DRAFT = """<problem>
Write `count_down(n)` returning the list n, n-1, ..., 1.
</problem>
<bug_code>
1. def count_down(n):
2.     return list(range(n, 0))
</bug_code>
<bug_desc>
`range(n, 0)` counts up from n, so it is empty: the step -1 is missing.
</bug_desc>
<bug_fixes>
Use `range(n, 0, -1)`.
</bug_fixes>
<unit_tests>
assert count_down(3) == [3, 2, 1]
assert count_down(0) == []
</unit_tests>
<stu_desc>
</stu_desc>
<dialogue>
User: count_down(3) gives me an empty list.
Assistant: What numbers does `range(3, 0)` produce?
User: None? It seems to stop at once.
Assistent: How does range know which direction to count?
User: Oh, I need a negative step.
</dialogue>
"""


def test_dialogue_written_exported_and_parsed_back(browser: Any, server: Server, workspace: Path) -> None:
    page = open_as(browser, server.base, "writer")
    page.goto(server.base + "/annotate")
    page.fill("input[name=name]", "written by hand")
    page.click("text=Create")
    page.wait_for_url(re.compile(r".*/annotate/c/\d+$"))
    collection_url = page.url
    page.fill("input[name=problem_id]", "7")
    page.fill("input[name=bug_id]", "3")
    page.fill("input[name=slug]", "count down")
    page.click("text=Create from the template")
    page.wait_for_url(re.compile(r".*/annotate/d/\d+$"))
    page.locator("#validation [data-state=valid]").wait_for()

    page.evaluate("text => window.annotateEditor.setValue(text)", FIRST_DRAFT)
    invalid = page.locator("#validation [data-state=invalid]")
    invalid.wait_for()
    assert "7_3_count_down_socratic_dialogue.txt:24: unexpected line" in invalid.inner_text()
    page.evaluate(
        "() => { const cm = window.annotateEditor; cm.setValue(cm.getValue().replace('Assistent', 'Assistant')); }"
    )
    page.locator("#validation [data-state=valid]").wait_for()

    # an alternative utterance under the first instructor turn, typed through the toolbar
    page.evaluate("() => window.annotateEditor.setCursor({line: 21, ch: 0})")
    page.click("button[data-insert=alt]")
    page.keyboard.type("Which numbers would you expect `range(3, 0)` to give?")
    # the student's code edit after the last line, through the toolbar, fixed by typing
    page.evaluate("() => window.annotateEditor.setCursor({line: 25, ch: 0})")
    page.click("button[data-insert=code]")  # the cursor lands on <code>; the program's line 2 is two lines down
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("End")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    page.keyboard.type(", -1")
    _wait_text(page, "#validation [data-state=valid]", "1 alternatives, 1 code edits")
    page.click("#save")
    _wait_text(page, "#save-state", "saved as version 2")
    saved = page.evaluate("window.annotateEditor.getValue()")
    screenshot(page, "annotate-editor")

    page.click("#revert")  # the server's undo: back to the template (version 3) ...
    _wait_text(page, "#save-state", "saved as version 3")
    assert "Describe the problem here." in page.evaluate("window.annotateEditor.getValue()")
    page.click("#undo")  # ... and the editor's own undo brings the draft back
    assert page.evaluate("window.annotateEditor.getValue()") == saved
    page.click("#save")
    _wait_text(page, "#save-state", "saved as version 4")

    page.goto(collection_url)
    with page.expect_download() as download:
        page.click("text=Download .zip")
    with zipfile.ZipFile(download.value.path()) as bundle:
        assert bundle.namelist() == ["7_3_count_down_socratic_dialogue.txt"]
        text = bundle.read("7_3_count_down_socratic_dialogue.txt").decode()
    assert text == saved
    dialogue = parse_dialogue_file(text, name="7_3_count_down_socratic_dialogue")
    assert dialogue.turns[1].alternatives[0].text == "Which numbers would you expect `range(3, 0)` to give?"
    assert dialogue.turns[-1].code == "def count_down(n):\n    return list(range(n, 0, -1))"

    page.click("#export-to-folder")
    folder = Path(page.inner_text("#export-folder"))
    stats = json.loads(_cli("socratic", "stats", "--data", str(folder), "--json"))
    assert stats["robust"]["dialogues"] == 1 and stats["robust"]["instructor_utterances"] == 3
    assert stats["robust"]["code_blocks"] == 1
    page.context.close()


def test_two_people_saving_the_same_dialogue_get_a_conflict(browser: Any, server: Server) -> None:
    ann = open_as(browser, server.base, "ann")
    ann.goto(server.base + "/annotate")
    ann.fill("input[name=name]", "built-in sample")
    ann.set_input_files("input[name=files]", [str(p) for p in sorted(sample_dir("socratic").glob("*.txt"))])
    ann.click("text=Create")
    ann.wait_for_url(re.compile(r".*/annotate/c/\d+$"))
    screenshot(ann, "annotate-collection")
    ann.click("text=main dialogue >> nth=0")
    ann.wait_for_url(re.compile(r".*/annotate/d/\d+$"))
    url = ann.url
    bob = open_as(browser, server.base, "bob")
    bob.on("dialog", lambda dialog: dialog.accept())
    bob.goto(url)
    for page in (ann, bob):
        page.locator("#validation [data-state=valid]").wait_for()

    replace = (
        "who => window.annotateEditor.setValue(window.annotateEditor.getValue().replace('User:', `User: (${who})`))"
    )
    ann.evaluate(replace, "ann")
    ann.click("#save")
    _wait_text(ann, "#save-state", "saved as version 2")
    bob.evaluate(replace, "bob")
    bob.click("#save")
    conflict = bob.locator("#conflict")
    conflict.wait_for()
    assert "changed by ann" in conflict.inner_text() and "Nothing was overwritten" in conflict.inner_text()
    assert "User: (bob)" in bob.evaluate("window.annotateEditor.getValue()")  # bob's text is still there
    screenshot(bob, "annotate-conflict")
    stored = httpx.get(url, headers={"accept": "text/html"}).text
    assert "User: (ann)" in stored and "User: (bob)" not in stored

    bob.reload()
    bob.locator("#validation [data-state=valid]").wait_for()
    assert "User: (ann)" in bob.evaluate("window.annotateEditor.getValue()")
    assert bob.get_attribute("#annotate", "data-version") == "2"
    ann.context.close()
    bob.context.close()


def _label_items(page: Any, study_url: str, rule: Any) -> dict[tuple[str, int], bool]:
    """Label every item of a study by ``rule(position, prediction, references) -> reference or None``."""
    decisions: dict[tuple[str, int], bool] = {}
    page.goto(study_url)
    page.click("#continue")
    while re.search(r"/item/\d+$", page.url):
        position = int(page.url.rsplit("/", 1)[1])
        item_id = page.get_attribute("input[name=item_id]", "value")
        predictions = page.locator(".match-table tbody tr").count()
        references = page.locator("#references li").count()
        for p in range(predictions):
            chosen = rule(position, p, references)
            if chosen is not None:
                page.check(f"input[name=m-{p}-{chosen}]")
            decisions[(item_id, p)] = chosen is not None
        if position == 0:
            screenshot(page, "evaluate-item")
        page.click("#save-item")
        page.wait_for_load_state()
    return decisions


def test_manual_evaluation_by_two_annotators_and_their_kappa(browser: Any, server: Server) -> None:
    lead = open_as(browser, server.base, "lead")
    lead.goto(server.base + "/evaluate")
    lead.fill("input[name=name]", "offline, two parsers")
    for box in lead.locator("input[name=runs]").all():
        box.check()
    lead.fill("input[name=limit]", "2")
    lead.click("text=Create the study")
    lead.wait_for_url(re.compile(r".*/evaluate/\d+$"))
    study_url = lead.url
    item_page = lead.locator("#continue").get_attribute("href")
    lead.goto(server.base + str(item_page))
    main = lead.content()
    run_ids = [path.name for path in server.runs_dir.iterdir()]
    assert len(run_ids) == 2 and not any(run_id in main for run_id in run_ids)  # blind to the system

    ann = open_as(browser, server.base, "ann")
    bob = open_as(browser, server.base, "bob")
    ann_labels = _label_items(ann, study_url, lambda pos, p, n: 0 if p == 0 else None)
    bob_labels = _label_items(
        bob, study_url, lambda pos, p, n: (0 if p == 0 else None) if pos % 2 else (n - 1 if p == 1 else None)
    )
    assert set(ann_labels) == set(bob_labels) and len(ann_labels) >= 8  # 2 systems x 2 examples x 2+ predictions

    lead.goto(study_url + "/results")
    units = sorted(ann_labels)
    expected = cohen_kappa([ann_labels[u] for u in units], [bob_labels[u] for u in units])
    assert lead.inner_text("[data-kappa=cohen]") == f"{expected.kappa:.3f}"
    fleiss = fleiss_kappa([[ann_labels[u], bob_labels[u]] for u in units])
    assert lead.inner_text("[data-kappa=fleiss]") == f"{fleiss.kappa:.3f}"
    assert lead.locator("#manual-scores tr.mean").count() == 2
    screenshot(lead, "evaluate-results")
    exported = lead.request.get(study_url + "/export.csv").text()
    assert len(list(csv.DictReader(io.StringIO(exported)))) == 2 * len(units)
    for page in (lead, ann, bob):
        page.context.close()


def _rate_items(page: Any, study_url: str, count: int, rule: Any) -> None:
    page.goto(study_url)
    page.click("#continue")
    for _ in range(count):
        page.wait_for_url(re.compile(r".*/item/\d+$"))
        for image in page.locator("img").all():
            image.scroll_into_view_if_needed()
            page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=image.element_handle())
        rule(page)
        page.click("#save-item")


def test_rating_studies_and_their_tables(browser: Any, server: Server, galleries: list[Path]) -> None:
    lead = open_as(browser, server.base, "lead")
    lead.goto(server.base + "/rate")
    form = lead.locator("form[action='/rate/new-generative']")
    form.locator("input[name=name]").fill("symbolic techniques")
    form.locator("textarea[name=galleries]").fill("\n".join(str(g) for g in galleries))
    form.locator("button").click()
    lead.wait_for_url(re.compile(r".*/rate/\d+$"))
    generative = lead.url

    def by_candidate(offset: int) -> Any:
        def rate(page: Any) -> None:
            for index, candidate in enumerate(page.locator(".candidate").all()):
                score = (index + offset) % 4 + 1
                candidate.locator(f"input[value='{score}']").check()
            if offset == 0 and "rate-generative" not in rated:
                rated.add("rate-generative")
                screenshot(page, "rate-generative")

        return rate

    rated: set[str] = set()
    expert1, expert2 = open_as(browser, server.base, "expert1"), open_as(browser, server.base, "expert2")
    _rate_items(expert1, generative, 3, by_candidate(0))
    _rate_items(expert2, generative, 2, by_candidate(1))

    lead.goto(generative + "/results")
    rows = list(csv.DictReader(io.StringIO(lead.request.get(generative + "/export.csv").text())))
    assert len({(r["rater"], r["scenario"]) for r in rows}) == 5
    for technique in ("symss-original", "behaviour-edits"):
        scores = [int(r["score"]) for r in rows if r["technique"] == technique]
        cell = lead.locator(f"#generative-table tr[data-technique='{technique}'] td").nth(2).inner_text()
        assert cell == f"{sum(scores) / len(scores):.2f}"
    assert lead.locator("#chi2 tr").count() == 3
    screenshot(lead, "rate-results")

    lead.goto(server.base + "/rate")
    form = lead.locator("form[action='/rate/new-discriminative']")
    form.locator("input[name=name]").fill("pick the student")
    form.locator("button").click()
    lead.wait_for_url(re.compile(r".*/rate/\d+$"))
    discriminative = lead.url

    def pick_second(page: Any) -> None:
        page.check("input[name=pick][value='1']")
        if "rate-discriminative" not in rated:
            rated.add("rate-discriminative")
            screenshot(page, "rate-discriminative")

    _rate_items(expert1, discriminative, 3, pick_second)
    lead.goto(discriminative + "/results")
    answers = list(csv.DictReader(io.StringIO(lead.request.get(discriminative + "/export.csv").text())))
    accuracy = sum(int(a["correct"]) for a in answers) / len(answers)
    assert len(answers) == 3
    assert lead.inner_text("#macro-accuracy") == f"{100 * accuracy:.1f}"
    for page in (lead, expert1, expert2):
        page.context.close()


def test_runs_list_report_and_comparison(browser: Any, server: Server) -> None:
    page = open_as(browser, server.base, "lead")
    page.goto(server.base + "/runs")
    rows = page.locator("#runs tbody tr")
    assert rows.count() == 2
    screenshot(page, "runs")
    rows.nth(0).locator("input[name=a]").check()
    rows.nth(1).locator("input[name=b]").check()
    page.click("#compare")
    page.wait_for_url(re.compile(r".*/runs/compare\?a=.*&b=.*"))
    metric = page.locator("#comparison tr[data-metric='rougeL_f1'] td")
    assert metric.count() == 4 and re.match(r"[+-]\d\.\d{4}$", metric.nth(3).inner_text())
    frame = page.frame_locator("iframe.report").first
    frame.locator("body").wait_for()
    assert "socratic" in frame.locator("body").inner_text()
    screenshot(page, "runs-compare")
    page.context.close()
