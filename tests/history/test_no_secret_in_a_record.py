"""No secret is ever in a record: a model's key, a secret-looking environment variable, a
password in a URL, a key-shaped text in the data, the output, the feedback, an error or the
metric's source, whatever the surface that ran the check."""

from __future__ import annotations

import pytest

import skynet_jupyter as sj
from skynet_jupyter.runlog.recorder import flush

KEY = "sk-live-abcdefghijklmnop1234"
ENV_SECRET = "envsecret-0123456789"
URL_PASSWORD = "urlpassword987654"

METRIC = f'''
TOKEN = "{KEY}"

def score(input, output, expected=None):
    if input["text"] == "boom":
        raise RuntimeError("failed with api_key={KEY}")
    return 1.0, {{"feedback": "Sent Authorization: Bearer {KEY} to the judge.",
                 "scores": {{"ok": 1.0}}}}
'''


def every_byte(folder) -> bytes:
    return b"".join(path.read_bytes() for path in folder.rglob("*") if path.is_file())


@pytest.mark.parametrize("kind", ["check", "evaluate"])
def test_no_secret_reaches_the_log(tmp_path, monkeypatch, kind):
    monkeypatch.setenv("MY_SERVICE_API_KEY", ENV_SECRET)
    rows = [
        {"text": f"my key is {KEY}", "label": ENV_SECRET, "out": f"echo {ENV_SECRET}"},
        {"text": "boom", "label": "x", "out": "y"},
        {"text": "plain", "label": "x", "out": f"https://user:{URL_PASSWORD}@example.com/v1"},
    ]
    metric = sj.load_metric(METRIC)
    try:
        sj.configure(
            run_log=tmp_path,
            task_model={
                "model": "openai/gpt-4o-mini",
                "api_key": "modelkey-9876543210",
                "api_base": f"http://me:{URL_PASSWORD}@localhost:1/v1",
            },
        )
        run = getattr(sj, kind)
        found = run(metric, rows, outputs="label", output_column="out", cases=3)
    finally:
        sj.configure(reset=True)
    flush()
    assert found.cases  # the run itself went as always
    written = every_byte(tmp_path)
    assert written  # a record was written
    for secret in (KEY, ENV_SECRET, URL_PASSWORD, "modelkey-9876543210"):
        assert secret.encode() not in written, secret
    (record,) = sj.history(log=tmp_path)
    assert record.models["task"] == "openai/gpt-4o-mini"
    assert "[redacted]" in (record.source or "")


BAD_RETURN = """
def score(input, output, expected=None):
    import os
    return "F" * 100 + (os.environ["MYSERVICE_API_KEY"] if input["q"] == "env" else input["key"])
"""


def test_a_secret_cut_short_in_an_error_leaves_no_tail(tmp_path, monkeypatch):
    """A bad return value is quoted cut in the middle: the cut came before the credential
    rule, so a key's last characters reached the record (found by the attack on issue
    46)."""
    key = "sk-proj-Q7xv3LmN9pR2tY8wK4bZ6cJ1hF5gD0sAUeWqTiOyPl"
    monkeypatch.setenv("MYSERVICE_API_KEY", "envsecretvalue-ABCDEFG-987654")
    rows = [
        {"q": "env", "key": "", "label": "x", "guess": "x"},
        {"q": "cfg", "key": key, "label": "x", "guess": "x"},
    ]
    try:
        sj.configure(run_log=tmp_path, metric_model={"model": "openai/gpt-4o-mini", "api_key": key})
        report = sj.evaluate(
            sj.load_metric(BAD_RETURN, name="leak"), rows, outputs="label", output_column="guess"
        )
    finally:
        sj.configure(reset=True)
    flush()
    assert all(case.error for case in report.cases)  # quoted, cut short
    written = every_byte(tmp_path)
    for secret in ("envsecretvalue-ABCDEFG-987654", key):
        assert secret[-12:].encode() not in written, secret
        assert all(secret[-12:] not in (case.error or "") for case in report.cases)
