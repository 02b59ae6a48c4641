"""Every magic accepts every option its Python twin accepts, and the options take effect.

The magics share one declaration per option group (``notebook/option_groups.py``),
so a parameter added to a function and forgotten in its magic fails here: the
parser's options are listed, named as the parameters are (``--run-timeout`` is
``run_timeout``), and compared with ``inspect.signature``.
"""

from __future__ import annotations

import inspect
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from IPython.core.error import UsageError

import skynet_jupyter as sj
from skynet_jupyter.core.options import OptionError
from skynet_jupyter.notebook.magics import SkynetMagics
from tests.quality_support import EXACT, TICKETS, Classify, cell, quality_shell, register

MAGICS = {
    "skynet_check": sj.check,
    "skynet_eval": sj.evaluate,
    "skynet_probe": sj.probe,
    "skynet_stability": sj.stability,
    "skynet_agree": sj.agreement,
    "skynet_compare": sj.compare,
    "skynet_optimize": sj.optimize,
    "skynet_align": sj.align,
}

# Parameters that cannot be a magic option, and why.
NOT_OPTIONS = {
    # A callback: the magic's live view (or terminal progress line) is the listener.
    "on_event",
    # The kernel's run cache, SkynetMagics.run_cache: --fresh skips it for one call,
    # %skynet_cache shows or clears it.
    "run_cache",
    # The kernel's models: %config SkynetMagics.task_model / metric_model /
    # reflection_model, which make the same ModelSettings.
    "models",
}

# Parameters a magic takes under another name.
RENAMED = {
    "metric_a": "names",  # %skynet_compare NAME_A NAME_B (positional)
    "metric_b": "names",
    "options": "gepa_options",  # sj.optimize(**options), GEPA's own: --gepa-options EXPR
}

# Options of a magic that its function does not take, and why.
MAGIC_ONLY = {
    "fresh",  # run again instead of reading the kernel's run cache (the function takes a cache)
    "no_raise",  # a failed check ends the cell with an error; a function returns the report
    "metric",  # %skynet_compare --metric NAME: NAME's previous version against NAME
}
# %skynet_optimize reads its cases as every magic does (the "cases" group); sj.optimize's
# signature, kept as it is, takes outputs, inputs and split only.
OPTIMIZE_ONLY = {"cases", "json_columns", "dtype"}
# %skynet_align writes the aligned metric itself (sj.align's report has .save(path, force=)).
ALIGN_ONLY = {"save", "force"}


def parameters(function: Any) -> set[str]:
    """What ``function`` accepts by name; ``**options`` of the quality tools is evaluate's."""
    names = set()
    for parameter in inspect.signature(function).parameters.values():
        if parameter.kind is inspect.Parameter.VAR_KEYWORD and function is not sj.optimize:
            names |= parameters(sj.evaluate) - {"metric", "data"}  # "options are evaluate's"
        else:
            names.add(parameter.name)
    return names


def magic_options(magic: str) -> set[str]:
    """The magic's options, named as parameters: ``--run-timeout`` is ``run_timeout``."""
    parser = getattr(SkynetMagics, magic).parser
    names = set()
    for action in parser._actions:
        if not action.option_strings:  # a positional argument (%skynet_compare's names)
            names.add(action.dest)
        for option in action.option_strings:
            names.add(option.lstrip("-").replace("-", "_"))
    return names


@pytest.mark.parametrize("magic", list(MAGICS))
def test_every_parameter_of_the_function_is_an_option_of_its_magic(magic):
    function = MAGICS[magic]
    wanted = {RENAMED.get(name, name) for name in parameters(function) - NOT_OPTIONS}
    assert wanted - magic_options(magic) == set(), f"%{magic} does not accept these"


@pytest.mark.parametrize("magic", list(MAGICS))
def test_a_magic_has_no_option_its_function_lacks_but_the_listed_ones(magic):
    function = MAGICS[magic]
    known = {RENAMED.get(name, name) for name in parameters(function)}
    extra = magic_options(magic) - known - MAGIC_ONLY
    only = {"skynet_optimize": OPTIMIZE_ONLY, "skynet_align": ALIGN_ONLY}
    assert extra == only.get(magic, set())


def test_the_parameters_are_read_as_documented():
    # The mapping above must see the parameters: the quality tools' **options included.
    assert {"run_timeout", "isolation", "executor", "json_columns", "dtype", "sample"} <= (
        parameters(sj.probe)
    )
    assert "options" in parameters(sj.optimize) and "gepa_options" in magic_options(
        "skynet_optimize"
    )
    assert magic_options("skynet_check") >= {"run_timeout", "sample", "seed", "dtype"}


# --- the new options take effect, through the magics ------------------------------------


@pytest.fixture
def shell(tmp_path, monkeypatch):
    with quality_shell(tmp_path, monkeypatch) as shell:
        register(shell, EXACT)
        yield shell


def test_sample_seed_and_dtype_reach_the_check(shell, tmp_path):
    line = "--data tickets --outputs label --output-column label --cases 2 --no-raise"
    picked = shell.run_line_magic("skynet_check", f"{line} --sample random --seed 3")
    api = sj.check(EXACT, TICKETS, outputs="label", output_column="label", cases=2)
    random_api = sj.check(
        EXACT, TICKETS, outputs="label", output_column="label", cases=2, sample="random", seed=3
    )
    assert [c.index for c in picked.cases] == [c.index for c in random_api.cases]
    assert [c.index for c in picked.cases] != [c.index for c in api.cases]
    (tmp_path / "numbers.csv").write_text("n,label\n7,billing\n8,other\n")
    typed = shell.run_line_magic(
        "skynet_check",
        "--data numbers.csv --inputs n --outputs label --output-column label --no-raise "
        "--dtype \"{'n': int}\"",
    )
    assert [c.input for c in typed.cases] == [{"n": 7}, {"n": 8}]
    as_text = shell.run_line_magic(
        "skynet_check", "--data numbers.csv --inputs n --outputs label --output-column label"
    )
    assert as_text.cases[0].input == {"n": "7"}


@pytest.mark.parametrize(
    ("magic", "line", "function", "options"),
    [
        ("skynet_probe", "--probes empty", sj.probe, {"probes": "empty"}),
        ("skynet_stability", "--repeats 2", sj.stability, {"repeats": 2}),
        ("skynet_compare", "default default", sj.compare, {}),
    ],
)
def test_the_quality_magics_sample_as_their_functions(shell, magic, line, function, options):
    sampling = "--cases 3 --sample random --seed 5"
    given = f"--data tickets --outputs label --output-column label {sampling} {line};"
    report = shell.run_line_magic(magic, given)
    twin = (EXACT, EXACT) if function is sj.compare else (EXACT,)
    api = function(
        *twin,
        TICKETS,
        outputs="label",
        output_column="label",
        cases=3,
        sample="random",
        seed=5,
        **options,
    )
    assert report.cases == api.cases and len(report.cases) == 3
    assert report.cases != [0, 1, 2]  # a random sample, not the first three


def test_agree_reads_json_columns(shell):
    shell.user_ns["labelled"] = [
        {"text": row["text"], "label": row["label"], "meta": '{"n": 1}', "human": "pass"}
        for row in TICKETS
    ]
    seen = []

    def classify(artifact, input):
        seen.append(input["meta"])
        return Classify()(artifact, input)

    shell.user_ns["classify_meta"] = classify
    line = "--data labelled --outputs label --run classify_meta --human human --json-columns meta"
    report = shell.run_line_magic("skynet_agree", f"{line};")
    assert report.n == 5 and seen == [{"n": 1}] * 5


# --- %skynet_optimize: the options sj.optimize takes, and the cases group --------------

OPTIMIZE = (
    "--data tickets --outputs label --run classify --artifact seed_prompt --budget 4 "
    "--val 0.5 --reflection-model reflection"
)


@pytest.fixture
def optimizing(shell):
    pytest.importorskip("gepa")
    shell.user_ns.update(
        seed_prompt="billing: charge", reflection=sj.StandInModel("```\nother: x\n```", tag="")
    )
    return shell


def _optimize_api(**options: Any) -> Any:
    settings: dict[str, Any] = dict(
        run=Classify(),
        artifact="billing: charge",
        budget=4,
        val=0.5,
        outputs="label",
        reflection_model=sj.StandInModel("```\nother: x\n```", tag=""),
    )
    settings.update(options)
    return sj.optimize(EXACT, TICKETS, **settings)


def test_optimize_takes_cases_and_component(optimizing):
    everything = optimizing.run_line_magic("skynet_optimize", f"{OPTIMIZE};")
    assert everything.train_size + everything.val_size == 5
    four = optimizing.run_line_magic("skynet_optimize", f"{OPTIMIZE} --cases 4 --component rules;")
    assert four.train_size + four.val_size == 4
    assert set(four.val_cases) <= {0, 1, 2, 3}
    assert four.component == "rules" and four.candidates[0].text == "billing: charge"


def test_optimize_run_timeout_and_isolation_say_what_sj_optimize_says(optimizing):
    with pytest.raises(OptionError) as api:
        _optimize_api(run_timeout=0.5)
    with pytest.raises(UsageError) as magic:
        optimizing.run_line_magic("skynet_optimize", f"{OPTIMIZE} --run-timeout 0.5")
    assert str(magic.value) == str(api.value)
    assert "run_timeout must be between 1 and 86400" in str(api.value)
    with ThreadPoolExecutor(1) as pool:
        optimizing.user_ns["pool"] = pool
        with pytest.raises(OptionError) as api:
            _optimize_api(isolation="process", executor=pool)
        with pytest.raises(UsageError) as magic:
            optimizing.run_line_magic(
                "skynet_optimize", f"{OPTIMIZE} --isolation process --executor pool"
            )
    assert str(magic.value) == str(api.value) and "isolation" in str(api.value)


def test_optimize_runs_its_cases_on_the_executor_and_within_the_run_timeout(optimizing):
    class CountingPool(ThreadPoolExecutor):
        submitted = 0

        def submit(self, fn, /, *args, **kwargs):
            CountingPool.submitted += 1
            return super().submit(fn, *args, **kwargs)

    with CountingPool(2) as pool:
        optimizing.user_ns["pool"] = pool
        report = optimizing.run_line_magic("skynet_optimize", f"{OPTIMIZE} --executor pool;")
    assert CountingPool.submitted > 0 and report.calls > 0

    def slow(artifact, input):
        import time

        time.sleep(3)
        return "other"

    optimizing.user_ns["slow"] = slow
    line = OPTIMIZE.replace("--run classify", "--run slow")
    report = optimizing.run_line_magic("skynet_optimize", f"{line} --run-timeout 1 --cases 2;")
    assert report.failed_cases > 0  # every case ran out of its second


def test_optimize_reads_json_columns_and_gepa_options(optimizing):
    optimizing.user_ns["meta_tickets"] = [dict(row, meta='{"n": 1}') for row in TICKETS]
    seen = []

    def classify(artifact, input):
        seen.append(input["meta"])
        return Classify()(artifact, input)

    optimizing.user_ns["classify_meta"] = classify
    line = OPTIMIZE.replace("--data tickets", "--data meta_tickets").replace(
        "--run classify", "--run classify_meta"
    )
    optimizing.run_line_magic("skynet_optimize", f"{line} --json-columns meta;")
    assert seen and all(meta == {"n": 1} for meta in seen)

    def stop(state):
        stop.calls += 1
        return True

    stop.calls = 0
    optimizing.user_ns["stop"] = stop
    line = f"{OPTIMIZE} --gepa-options \"{{'stop_callbacks': [stop]}}\";"
    optimizing.run_line_magic("skynet_optimize", line)
    assert stop.calls > 0  # GEPA asked our stopper: the options reached it
    result, _ = cell(optimizing, f"%skynet_optimize {OPTIMIZE} --gepa-options \"{{'x': 1}}\";")
    assert isinstance(result.error_in_exec, UsageError)
    assert "not an option" in str(result.error_in_exec)  # GEPA's options were read, and checked
    result, _ = cell(optimizing, f"%skynet_optimize {OPTIMIZE} --gepa-options seed_prompt;")
    assert "not a dict of gepa.optimize keyword arguments" in str(result.error_in_exec)
