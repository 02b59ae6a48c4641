"""litellm imported ahead, in the background, once a litellm model is configured (issue 37,
item 2), and never when it would be for nothing.

Each scenario runs in a fresh Python process (``sys.modules`` starts without litellm), with a
litellm model at the loopback server.  No timing is asserted: what is pinned is what the
import ahead decides, and that a cell run while it works is not held until it ends.
"""

from __future__ import annotations

import json
import os
import subprocess
import textwrap
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skynet_jupyter.models import import_ahead
from skynet_jupyter.models.call_store import CallStore
from skynet_jupyter.models.litellm_import import litellm_models
from tests.cli_support import skynet_check_command
from tests.fresh_python import ROOT, last_json
from tests.openai_server import OpenAIServer

PRELUDE = """
import json, sys, time
import skynet_jupyter as sj
from skynet_jupyter.models import import_ahead
from skynet_jupyter.helper.skynet import llm

BASE = sys.argv[1]
MODEL = {"model": "openai/gpt-4o-mini", "api_base": BASE, "api_key": "sk-test-0000"}

def run(artifact, case_input):
    return llm(artifact, case_input["text"])

def score(input, output, expected=None):
    return float(output == expected["label"]), {"feedback": "ok"}

ROWS = [{"text": f"Ticket {n}", "label": "billing"} for n in range(3)]

def until(status_starts, timeout=120.0):
    end = time.monotonic() + timeout
    while not import_ahead.status().startswith(status_starts):
        assert time.monotonic() < end, import_ahead.status()
        time.sleep(0.002)

def said(**facts):
    facts.setdefault("litellm", "litellm" in sys.modules)
    facts.setdefault("status", import_ahead.status())
    print(json.dumps(facts))
"""


def scenario(server: OpenAIServer, body: str, *args: str, **env: str) -> dict:
    code = PRELUDE + textwrap.dedent(body)
    inherited = {k: v for k, v in os.environ.items() if not k.startswith("SKYNET_")}
    environment = {**inherited, "LITELLM_LOCAL_MODEL_COST_MAP": "True", **env}
    return last_json(code, server.base_url, *args, env=environment)[0]


@pytest.fixture(scope="module")
def server():
    with OpenAIServer() as running:
        running.reply = lambda request: "billing"
        yield running


def test_a_configured_litellm_model_is_imported_in_the_background(server):
    said = scenario(
        server,
        """
        sj.configure(task_model=MODEL)
        first = import_ahead.status()
        loaded_at_once = "litellm" in sys.modules
        assert import_ahead.wait(240)
        report = sj.evaluate(score, ROWS, outputs="label", run=run, artifact="Label.",
                             concurrency=1)
        said(first=first, loaded_at_once=loaded_at_once, passed=report.passed,
             scores=[case.score for case in report.cases])
        """,
    )
    assert said["first"] == "waiting"
    assert said["loaded_at_once"] is False  # configure() itself imports nothing
    assert said["status"].startswith("imported"), said
    assert said["litellm"] is True
    assert said["passed"] and said["scores"] == [1.0, 1.0, 1.0]


def test_a_cell_run_during_the_import_is_not_held_until_it_ends(server):
    said = scenario(
        server,
        """
        sj.configure(task_model=MODEL)
        until("importing")
        cells = []
        for _ in range(5):  # small cells, while litellm is being imported
            cells.append(sorted({n: str(n) for n in range(2000)}.values())[:1])
            cells.append(import_ahead.status())
        import_ahead.wait(240)
        said(during=[status for status in cells if isinstance(status, str)])
        """,
    )
    # The cells ran to their end while the import was still under way.
    assert said["during"][0] == "importing", said
    assert said["status"].startswith("imported")


def test_a_check_started_during_the_import_waits_for_it_and_is_right(server):
    asked = len(server.requests)
    said = scenario(
        server,
        """
        sj.configure(task_model=MODEL)
        until("importing")
        report = sj.evaluate(score, ROWS, outputs="label", run=run, artifact="Label.",
                             concurrency=2)
        said(passed=report.passed, run_ms=[case.run_ms for case in report.cases],
             errors=[case.error for case in report.cases])
        """,
    )
    assert said["passed"], said["errors"]
    assert len(server.requests) - asked == 3
    assert said["status"].startswith("imported")


def test_a_run_that_starts_first_calls_it_off(server, tmp_path):
    cache = tmp_path / "runs.sqlite"
    said = scenario(
        server,
        """
        report = sj.evaluate(score, ROWS, outputs="label", run=run, artifact="Label.",
                             models=sj.ModelSettings(task_model=MODEL),
                             run_cache=sj.RunCache(path=sys.argv[2]))
        assert report.passed
        said()
        """,
        str(cache),
    )
    assert said["litellm"] is True  # the cache filled: every call was made
    said = scenario(
        server,
        """
        sj.configure(task_model=MODEL)  # then at once, as "Run All" does
        report = sj.evaluate(score, ROWS, outputs="label", run=run, artifact="Label.",
                             run_cache=sj.RunCache(path=sys.argv[2]))
        time.sleep(import_ahead.PAUSE_S + 1.0)
        said(cached=[case.cached for case in report.cases])
        """,
        str(cache),
    )
    assert said["cached"] == [True, True, True]
    assert said["status"] == "skipped: a run started first"
    assert said["litellm"] is False


@pytest.mark.parametrize(
    ("configure", "env"),
    [
        ("sj.configure(task_model=lambda instructions, input: 'billing')", {}),
        ("sj.configure(task_model=MODEL)", {"SKYNET_IMPORT_AHEAD": "0"}),
        ("sj.configure(task_model=MODEL)", {"SKYNET_IMPORT_AHEAD": " Off "}),
        ("import skynet_jupyter.models.settings", {"SKYNET_TASK_MODEL": "openai/gpt-4o-mini"}),
    ],
    ids=["a-callable-model", "turned-off", "turned-off-in-other-words", "env-without-load-ext"],
)
def test_nothing_is_imported_ahead_for_nothing(server, configure, env):
    said = scenario(
        server,
        f"""
        {configure}
        time.sleep(import_ahead.PAUSE_S + 1.0)
        said()
        """,
        **env,
    )
    assert said == {"litellm": False, "status": "idle"}


SESSION = """
from IPython.core.interactiveshell import InteractiveShell
shell = InteractiveShell.instance()
shell.run_line_magic("load_ext", "skynet_jupyter")
shell.run_line_magic("config", "SkynetMagics.cache_dir = " + repr(sys.argv[2]))
{configure}
import_ahead.wait(240)
time.sleep(0.2)
said()
"""


def _filled_cache(folder: Path) -> None:
    store = CallStore(folder / "runs.sqlite")
    store.put("a" * 64, {"text": "billing"})
    assert len(store) == 1


@pytest.mark.parametrize("holds_replies", [True, False], ids=["cache-with-replies", "empty"])
@pytest.mark.parametrize("how", ["config", "env-at-load-ext"])
def test_a_notebook_session_imports_ahead_unless_its_cache_holds_replies(
    server, tmp_path, holds_replies, how
):
    if holds_replies:
        _filled_cache(tmp_path)
    configure = (
        'shell.run_line_magic("config", f"SkynetMagics.task_model = {MODEL!r}")'
        if how == "config"
        else "pass"
    )
    env = {"SKYNET_TASK_MODEL": "openai/gpt-4o-mini"} if how == "env-at-load-ext" else {}
    said = scenario(server, SESSION.format(configure=configure), str(tmp_path), **env)
    if holds_replies:
        assert said == {"litellm": False, "status": "skipped: the run cache holds replies"}
    else:
        assert said["status"].startswith("imported") and said["litellm"] is True


def test_the_cache_reader_agrees_with_the_store(tmp_path):
    path = tmp_path / "runs.sqlite"
    assert not import_ahead._holds_replies(path)  # no file
    store = CallStore(path)
    assert len(store) == 0
    assert not import_ahead._holds_replies(path)  # a file with no reply
    store.put("b" * 64, {"text": "x"})
    assert import_ahead._holds_replies(path)
    (tmp_path / "damaged.sqlite").write_bytes(b"not a database" * 100)
    assert not import_ahead._holds_replies(tmp_path / "damaged.sqlite")
    assert not import_ahead._holds_replies(tmp_path)  # a directory


def test_litellm_models_are_strings_and_dicts_only():
    def model(instructions, input):
        return "x"

    chosen = litellm_models(["openai/x", {"model": "openai/y"}, None, model, 3])
    assert chosen == ["openai/x", {"model": "openai/y"}]


@settings(max_examples=300, deadline=None)
@given(
    st.text(
        alphabet=st.characters(exclude_characters="\x00", exclude_categories=("Cs",)), max_size=12
    )
    | st.sampled_from(["0", " Off ", "FALSE\n", "\tno", "1", "on", "yes", ""])
)
def test_the_switch_reads_any_value_the_same_way(value):
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SKYNET_IMPORT_AHEAD", value)
        expected = value.strip().lower() not in {"0", "false", "no", "off"}
        assert import_ahead.enabled() is expected


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    keys=st.lists(st.text(alphabet="0123456789abcdef", min_size=64, max_size=64), max_size=4),
    damaged=st.binary(max_size=64),
)
def test_the_cache_reader_agrees_with_the_store_on_any_contents(tmp_path_factory, keys, damaged):
    folder = tmp_path_factory.mktemp("cache")
    path = folder / "runs.sqlite"
    store = CallStore(path)
    for key in keys:
        store.put(key, {"text": key[:3]})
    assert import_ahead._holds_replies(path) is (len(store) > 0)
    other = folder / "other.sqlite"
    other.write_bytes(damaged)  # a file that is no cache: never "holds replies"
    assert import_ahead._holds_replies(other) is False


def test_turned_off_during_the_pause_it_does_not_start(server):
    said = scenario(
        server,
        """
        import os
        sj.configure(task_model=MODEL)
        os.environ["SKYNET_IMPORT_AHEAD"] = "0"  # while it waits
        import_ahead.wait(60)
        said()
        """,
    )
    assert said == {"litellm": False, "status": "skipped: turned off (SKYNET_IMPORT_AHEAD)"}


def test_a_model_set_from_another_thread_during_a_run_imports_nothing_meanwhile(server):
    said = scenario(
        server,
        """
        import threading

        seen = []

        def score(input, output, expected=None):
            if input["text"] == "Ticket 0":  # another thread sets a model, mid-run
                threading.Thread(target=sj.configure, kwargs={"task_model": MODEL}).start()
            time.sleep(0.05)
            seen.append("litellm" in sys.modules)
            return 1.0, {"feedback": "ok"}

        rows = [{"text": f"Ticket {n}", "label": "billing"} for n in range(40)]
        report = sj.evaluate(score, rows, output_column="label", concurrency=1)
        said(passed=report.passed, imported_during=any(seen))
        """,
    )
    assert said["passed"] and said["imported_during"] is False
    assert said["status"] == "skipped: a run started first" and said["litellm"] is False


def test_a_single_run_under_way_when_the_pause_ends_is_seen(server):
    """The window held open: the run (one, in the main thread) waits, in its first case,
    until the import ahead has decided after its pause; a check that saw only a second run
    under way (``runs > 1``) would import litellm in the middle of this one."""
    said = scenario(
        server,
        """
        import threading

        seen, decided = [], []

        def score(input, output, expected=None):
            if input["text"] == "Ticket 0":  # a model set from another thread, mid-run
                threading.Thread(target=sj.configure, kwargs={"task_model": MODEL}).start()
                end = time.monotonic() + 60
                while import_ahead.status() in ("idle", "waiting") and time.monotonic() < end:
                    time.sleep(0.01)  # the run stays under way past the pause
                import_ahead.wait(120)
                decided.append(import_ahead.status())
            seen.append("litellm" in sys.modules)
            return 1.0, {"feedback": "ok"}

        rows = [{"text": f"Ticket {n}", "label": "billing"} for n in range(3)]
        report = sj.evaluate(score, rows, output_column="label", concurrency=1)
        said(passed=report.passed, decided=decided, imported_during=any(seen))
        """,
    )
    assert said["passed"]
    assert said["decided"] == ["skipped: a run started first"]
    assert said["imported_during"] is False and said["litellm"] is False


def test_skynet_checks_import_ahead_skips_a_run_cache_that_holds_replies(server, tmp_path):
    _filled_cache(tmp_path)
    said = scenario(
        server,
        """
        from pathlib import Path
        started = import_ahead.start_now([MODEL], Path(sys.argv[2]))
        import_ahead.wait(120)
        said(started=started)
        """,
        str(tmp_path / "runs.sqlite"),
    )
    assert said == {
        "started": True,
        "litellm": False,
        "status": "skipped: the run cache holds replies",
    }


# An audit hook in every process of the command (its child too), from the moment each
# starts: an import of litellm is said as it begins, even one the process ends before.
AUDIT = """
import os, sys

def _said(event, args):
    if event == "import" and args and args[0] == "litellm":
        os.write(2, b"AUDIT: litellm is imported\\n")

sys.addaudithook(_said)
"""

SLOW_JUDGED = """
import time

time.sleep(0.5)  # the window held open: the import ahead, started before this file, runs

from skynet import llm


def score(input, output, expected=None):
    verdict = llm("Answer PASS or FAIL.", input=f"{input['text']} -> {output}")
    return (1.0 if verdict.startswith("PASS") else 0.0), {"feedback": verdict}
"""


def test_skynet_check_imports_no_litellm_when_its_run_cache_holds_every_reply(tmp_path):
    (tmp_path / "audit").mkdir()
    (tmp_path / "audit" / "sitecustomize.py").write_text(AUDIT)
    (tmp_path / "metric.py").write_text(SLOW_JUDGED)
    rows = [{"text": f"ticket {n}", "label": "billing"} for n in range(3)]
    (tmp_path / "cases.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("SKYNET_")},
        "PYTHONPATH": os.pathsep.join([str(tmp_path / "audit"), str(ROOT)]),
        "LITELLM_LOCAL_MODEL_COST_MAP": "True",
        "OPENAI_API_KEY": "sk-test-0000",
        "SKYNET_IMPORT_AHEAD": "1",  # as a user has it (tests/conftest.py turns it off)
    }
    with OpenAIServer() as judge:
        judge.reply = lambda request: "PASS"
        args = [
            *skynet_check_command(), str(tmp_path / "metric.py"),
            "--data", str(tmp_path / "cases.jsonl"), "--output-column", "label",
            "--metric-model", "openai/judge-x", "--api-base", judge.base_url,
            "--cache-dir", str(tmp_path / "cache"), "--json",
        ]  # fmt: skip
        runs = [
            subprocess.run(args, capture_output=True, text=True, env=env, timeout=300)
            for _ in range(2)
        ]
        asked = len(judge.requests)
    for done in runs:
        assert done.returncode == 0, done.stderr[-3000:]
    cold, warm = runs
    assert asked == len(rows)  # the first run asked; the second was answered by the cache
    assert [case["cached"] for case in json.loads(warm.stdout)["cases"]] == [True] * 3
    assert "AUDIT: litellm is imported" in cold.stderr
    assert "AUDIT: litellm is imported" not in warm.stderr
