"""skynet-check shows the feedback advice and still passes (moved from tests/core/test_advice.py).

``main()`` runs in the test process, as the in-process CLI tests do; the check itself runs
in the child it starts.
"""

from __future__ import annotations

import json

import skynet_jupyter as sj
from skynet_jupyter.cli import main as skynet_check
from skynet_jupyter.core.contract import FEEDBACK_ADVICE


def test_cli_shows_advice_and_still_passes(tmp_path, capsys, examples_dir):
    metric = tmp_path / "metric.py"
    metric.write_text(
        "def score(input, output, expected=None):\n"
        "    if output == expected['label']:\n"
        "        return 1.0, {'feedback': 'OK'}\n"
        "    return 0.0, {'feedback': 'Wrong.'}\n",
        encoding="utf-8",
    )
    data = sj.load_example("tickets")
    run = f"{examples_dir / 'classify.py'}:run"
    artifact = str(examples_dir / "prompt.txt")
    args = [str(metric), "--data", str(data), "--outputs", "label", "--run", run]
    code = skynet_check([*args, "--artifact", artifact, "--cases", "10"])
    out = capsys.readouterr().out
    assert code == 0
    assert "! Feedback advice: Generic feedback 'Wrong.' on case 9:" in out
    assert "\"Expected 'billing', got 'other'. <why>\"" in out

    code = skynet_check([*args, "--artifact", artifact, "--cases", "10", "--json", "--lang", "fr"])
    steps = json.loads(capsys.readouterr().out)["steps"]
    assert code == 0
    advice = next(step for step in steps if step["id"] == FEEDBACK_ADVICE)
    assert advice["status"] == "advice"
    assert advice["cases"] == [9]
    assert advice["message"].startswith("Retour générique 'Wrong.' pour le cas 9 :")
