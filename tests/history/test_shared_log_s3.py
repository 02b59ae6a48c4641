"""A run log shared through an fsspec URL (the ``[remote]`` extra), against a real
S3-compatible server on 127.0.0.1: moto in server mode, spoken to by s3fs over HTTP."""

from __future__ import annotations

import json

import pytest

import skynet_jupyter as sj
from skynet_jupyter.runlog.recorder import flush
from skynet_jupyter.runlog.store import RunLogWarning
from tests.cli_support import skynet_check
from tests.conftest import require_module

from .test_command_line import ARGS, METRIC, STRICTER

KEY_ID, SECRET = "skynettestkeyid", "skynettestsecret42"


@pytest.fixture(scope="module")
def s3_server():
    require_module("s3fs")
    require_module("boto3")
    server_module = require_module("moto.server")
    server = server_module.ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    yield f"http://{host}:{port}"
    server.stop()


@pytest.fixture
def bucket(s3_server, monkeypatch, request):
    import boto3
    import fsspec

    env = {
        "AWS_ACCESS_KEY_ID": KEY_ID,
        "AWS_SECRET_ACCESS_KEY": SECRET,
        "AWS_DEFAULT_REGION": "us-east-1",
        "AWS_ENDPOINT_URL": s3_server,
    }
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    name = request.node.name.replace("_", "-")[:40].strip("-").lower()
    boto3.client("s3", endpoint_url=s3_server).create_bucket(Bucket=name)
    fsspec.AbstractFileSystem.clear_instance_cache()
    return f"s3://{name}/team/runs", env


def _evaluate(log, source=METRIC):
    rows = [
        {"text": text, "label": label, "guess": guess}
        for text, label, guess in [
            ("one", "a", "a"),
            ("two", "b", "x"),
            ("three", "c", "c"),
            ("four", "a", "a"),
        ]
    ]
    try:
        sj.configure(run_log=log)
        return sj.evaluate(
            sj.load_metric(source, name="metric.py"), rows, outputs="label", output_column="guess"
        )
    finally:
        sj.configure(reset=True)


def test_runs_are_recorded_listed_compared_and_pruned_in_a_bucket(bucket):
    url, _ = bucket
    _evaluate(url)
    _evaluate(url, STRICTER)
    flush()
    found = sj.history(log=url)
    assert len(found) == 2 and all(r.location.url == url for r in found)
    assert found[0].source == STRICTER and found[1].source == METRIC
    compared = sj.diff("last~1", "last", log=url)
    assert len(compared.regressions) == 1 and "-    if output" in compared.source_diff
    assert found[0].report().mean_score == 0.5
    assert found.prune(keep=1) == 1
    assert [r.id for r in sj.history(log=url)] == [found[0].id]


def test_a_damaged_object_is_skipped_with_a_warning(bucket):
    import fsspec

    url, _ = bucket
    _evaluate(url)
    flush()
    fs, root = fsspec.core.url_to_fs(url)
    fs.pipe_file(f"{root}/runs/20990101-000000-0000dead.jsonl", b'{"schema": 1, "kind"')
    fs.invalidate_cache()
    with pytest.warns(RunLogWarning, match="0000dead.jsonl cannot be read"):
        assert len(sj.history(log=url)) == 1


def test_ci_writes_the_notebook_reads_and_back(bucket, tmp_path):
    url, env = bucket
    (tmp_path / "metric.py").write_text(METRIC)
    (tmp_path / "cases.csv").write_text("text,label,guess\none,a,a\ntwo,b,x\nthree,c,c\nfour,a,a\n")
    ci = skynet_check(*ARGS, "--log-dir", url, cwd=tmp_path, env=env)
    assert ci.returncode == 0, ci.stdout + ci.stderr
    (from_ci,) = sj.history(log=url)
    assert from_ci.origin == "cli" and from_ci.metric == "metric.py"
    _evaluate(url, STRICTER)  # the notebook's edit, recorded in the shared log
    flush()
    (tmp_path / "metric.py").write_text(STRICTER)
    gate = skynet_check(
        *ARGS, "--log-dir", url, "--against", "last", "--json", cwd=tmp_path, env=env
    )
    assert gate.returncode == 0, gate.stdout + gate.stderr  # against the notebook's run: same
    against = json.loads(gate.stdout)["against"]["diff"]
    assert against["a"]["origin"] == "python" and against["counts"]["regressions"] == 0
    (tmp_path / "metric.py").write_text(METRIC)
    worse = skynet_check(*ARGS, "--log-dir", url, "--against", "last", cwd=tmp_path, env=env)
    assert worse.returncode == 0  # back to the first version: an improvement
    assert SECRET not in ci.stdout + gate.stdout + worse.stdout
