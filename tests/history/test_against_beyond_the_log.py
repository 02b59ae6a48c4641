"""``--against last~N`` past the runs the log holds is refused, never a gate that passes
(found by the attack on issue 46: with 2 earlier runs, ``--against last~5`` exited 0
and said "nothing to compare with yet" while every case had regressed)."""

from __future__ import annotations

import json

from tests.cli_support import skynet_check

GOOD = """def score(input, output, expected=None):
    ok = output == expected["label"]
    return (1.0 if ok else 0.0), {"feedback": "Correct." if ok else "Wrong."}
"""


def test_a_run_further_back_than_the_log_goes_is_a_usage_error(tmp_path):
    rows = [{"text": f"t{i}", "label": label, "guess": label} for i, label in enumerate("xyz")]
    (tmp_path / "cases.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
    args = ["metric.py", "--data", "cases.jsonl", "--outputs", "label",
            "--output-column", "guess", "--all", "--log-dir", "log"]  # fmt: skip
    (tmp_path / "metric.py").write_text(GOOD)
    for _ in range(2):
        assert skynet_check(*args, cwd=tmp_path).returncode == 0
    (tmp_path / "metric.py").write_text(GOOD.replace("(1.0 if ok else 0.0)", "0.0"))
    assert skynet_check(*args, "--against", "last~1", cwd=tmp_path).returncode == 1
    gate = skynet_check(*args, "--against", "last~5", cwd=tmp_path)
    assert gate.returncode == 2, gate.stdout
    assert "that far back (the furthest is last~2)" in gate.stderr  # 3 runs before
