"""``%skynet_align``: the judge alignment of ``sj.align`` through the magic, with its live
view, ``--save`` and its usage errors (real gepa, stand-in models)."""

from __future__ import annotations

import ast

import pytest
from IPython.core.error import UsageError
from IPython.utils.capture import capture_output

from tests.conftest import require_module

gepa = require_module("gepa")

import skynet_jupyter as sj  # noqa: E402
from skynet_jupyter.i18n import t  # noqa: E402
from skynet_jupyter.notebook.save import refusal  # noqa: E402
from tests.align_support import (  # noqa: E402
    JUDGE_METRIC,
    PASSWORD_REASON,
    RuleWriter,
    judge_model,
    replies,
)

WIDGET = "application/vnd.jupyter.widget-view+json"
LINE = (
    "--data labelled --output-column reply --labels human --rationale why "
    "--reflection-model writer --budget 60"
)


@pytest.fixture
def shell(shell):
    """conftest.py's shell with the labelled replies, the stand-ins and the judge metric."""
    rows = replies()
    for row in rows:
        if row["why"] == PASSWORD_REASON:
            row["why"] = "<i>Never</i> " + PASSWORD_REASON  # must show escaped
    shell.user_ns.update(
        labelled=rows, writer=sj.StandInModel(RuleWriter()), judge=judge_model(), few=rows[:9]
    )
    shell.run_cell("%config SkynetMagics.metric_model = judge").raise_error()
    shell.run_cell("%%skynet_metric\n" + JUDGE_METRIC).raise_error()
    return shell


def test_the_magic_aligns_with_a_live_view(shell):
    with capture_output() as captured:
        report = shell.run_line_magic("skynet_align", LINE)
    assert isinstance(report, sj.AlignReport)
    assert report.improved and report.after.accuracy == 1.0 > report.before.accuracy
    assert '- FAIL if the reply contains "your password".' in report.best_prompt
    shown = [output for output in captured.outputs if not output.update]
    assert len(shown) == 2, "one live view (the widget, then its static copy), not the report"
    assert WIDGET in shown[0].data
    final = captured.outputs[-1].data
    headline = t(
        "align.improved",
        "en",
        name="default",
        prompt="JUDGE",
        measure=t("align.accuracy", "en"),
        before=f"{report.before.accuracy:.3f}".rstrip("0").rstrip("."),
        after="1",
        count=len(report.held_out_cases),
    )
    assert headline in final["text/plain"]
    html = final["text/html"]
    assert "&lt;i&gt;Never&lt;/i&gt;" in html and "<i>Never" not in html
    assert "<ins>" in html  # the new instructions, as a word diff
    # The reflection model read the disagreements, the human's reason with them, verbatim.
    prompts = "\n".join(prompt for prompt, _ in shell.user_ns["writer"].calls)
    records = [r for proposal in report.optimization.proposals for r in proposal.records]
    assert records and all(record["Feedback"] in prompts for record in records)
    assert "The human's reason: <i>Never</i> " + PASSWORD_REASON in prompts


def test_the_budget_and_max_cost_stop_the_magic(shell):
    with capture_output():
        short = shell.run_line_magic("skynet_align", LINE.replace("--budget 60", "--budget 20"))
    assert short.stopped == "budget" and short.optimization.calls < 60
    shell.user_ns["priced"] = sj.StandInModel(RuleWriter(), output_cost_per_token=0.01)
    line = LINE.replace("writer", "priced").replace("--budget 60", "--budget 5000")
    with capture_output():
        costly = shell.run_line_magic("skynet_align", line + " --max-cost 0.05")
    assert costly.stopped == "max_cost" and costly.optimization.calls < 5000
    assert costly.cost_usd.reflection >= 0.05
    assert len(shell.user_ns["priced"].calls) == costly.reflection_calls == 1


def test_the_live_view_shows_held_out_agreement_so_far(shell):
    from skynet_jupyter.alignment.render import head_html
    from skynet_jupyter.notebook.widgets._align_view import AlignView
    from skynet_jupyter.show.render import esc

    seen = []
    original = AlignView.on_event

    def recording(self, event):
        seen.append((event.kind, head_html(event.report)))  # what the view draws now
        original(self, event)

    AlignView.on_event = recording
    try:
        with capture_output():
            report = shell.run_line_magic("skynet_align", LINE)
    finally:
        AlignView.on_event = original
    kinds = [kind for kind, _ in seen]
    assert kinds[0] == "outputs" and kinds[-1] == "finished"
    assert {"case", "proposal", "candidate", "held_out"} <= set(kinds)
    so_far = t(
        "align.running_so_far",
        "en",
        name="default",
        prompt="JUDGE",
        measure=t("align.accuracy", "en"),
        before=f"{report.before.accuracy:.3f}".rstrip("0").rstrip("."),
        after="1",
        count=len(report.held_out_cases),
    )
    held_out = kinds.index("held_out")
    assert esc(so_far) in seen[held_out][1]  # while GEPA runs, before the end
    assert held_out < len(kinds) - 1


def test_save_writes_only_the_new_instructions_and_keeps_another_file(shell, tmp_path):
    target = tmp_path / "aligned.py"
    with capture_output() as captured:
        report = shell.run_line_magic("skynet_align", LINE + f" --save {target};")
    assert t("magic.saved", "en", path=str(target)) in captured.stdout
    saved = ast.parse(target.read_text(encoding="utf-8"))
    judge = next(n for n in saved.body if isinstance(n, ast.Assign) and n.targets[0].id == "JUDGE")
    assert ast.literal_eval(judge.value) == report.best_prompt
    other = tmp_path / "other.py"
    other.write_text("# mine\n", encoding="utf-8")
    with capture_output() as refused:
        shell.run_line_magic("skynet_align", LINE + f" --save {other};")
    # The report is kept (the magic's value): the refusal is said beside it, not raised.
    # The refusal is the notebook's save rule's (notebook/save.py): no save of it on record.
    assert refusal(other, "# mine\n", None, report.metric_name, "en") in refused.stdout
    assert other.read_text(encoding="utf-8") == "# mine\n"
    with capture_output():
        shell.run_line_magic("skynet_align", LINE + f" --save {other} --force;")
    assert other.read_text(encoding="utf-8") == target.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (LINE.replace("labelled", "few"), "aligning a judge needs at least 10"),
        (LINE + " --prompt INSTRUCTIONS", "its module-level strings are: JUDGE, OTHER_TEXT"),
        (LINE + " --force", "--force goes with --save PATH"),
        (LINE.replace("--labels human", "--labels nope"), "nope"),
    ],
)
def test_refusals_are_usage_errors_and_leave_no_view(shell, line, message):
    with capture_output() as captured, pytest.raises(UsageError, match=message):
        shell.run_line_magic("skynet_align", line)
    assert not [o for o in captured.outputs if WIDGET in o.data]
    assert shell.user_ns["judge"].calls == []
