"""English messages (the reference catalog: every key here exists in fr and pt)."""

MESSAGES = {
    # Step titles, in the order the check runs them.
    "step.metric_loads": "Metric loads",
    "step.metric_signature": "Metric signature",
    "step.reward_spec": "Reward spec",
    "step.run_function": "Run function",
    "step.metric_return_value": "Metric return value",
    "step.metric_time_limit": "Metric time limit",
    "step.feedback_advice": "Feedback advice",
    "step.not_reached": "Not reached: an earlier step failed.",
    "step.case_failed": "Case {case}: {error}",
    "step.more_cases": "({count} more case(s) failed here.)",
    # How to fix a failed step.
    "hint.metric_loads": "Fix the error above; the metric must run on its own, as metric.py.",
    "hint.metric_signature": (
        "Define score(input, output, expected=None) (or score(input, output)) "
        "at the top level of the metric."
    ),
    "hint.reward_spec": (
        "Write REWARD_SPEC as in the contract: weights for accuracy, speed and cost, "
        "and positive speed.reference (ms) and cost.reference (USD)."
    ),
    "hint.run_function": "Fix run(artifact, input) so it returns an output for every case.",
    "hint.metric_return_value": (
        'Return a pair: (number, {{"feedback": "what is wrong and what a correct '
        'output looks like"}}).'
    ),
    "hint.metric_time_limit": (
        "Make score faster (or raise --timeout, up to 600 s); a judge call should "
        "have its own timeout."
    ),
    # Metric return value.
    "return.not_pair": (
        "score returned {value} (a {type}), not a pair: return a tuple or list of two items, "
        '(score, {{"feedback": "..."}}).'
    ),
    "return.wrong_length": (
        "score returned {count} items ({value}); a pair means exactly two: "
        '(score, {{"feedback": "..."}}).'
    ),
    "return.score_type": (
        "The score {value} is a {type}, not a number: return an int or a float "
        "(for example float(x))."
    ),
    "return.score_bool": (
        "The score {value} is a bool: return a number such as 1.0 or 0.0, which the "
        "optimizer can climb."
    ),
    "return.score_nan": "The score is NaN: return a finite number (check for a division by zero).",
    "return.score_inf": "The score {value} is infinite: return a finite number.",
    "return.info_not_dict": (
        'The side information {value} is a {type}, not a dict: return {{"feedback": "..."}} '
        "as the second item."
    ),
    "return.no_feedback": (
        'The side information {value} has no "feedback" key: add "feedback" with a sentence '
        "saying what is wrong and what a correct output looks like."
    ),
    "return.feedback_not_str": (
        'The "feedback" value {value} is a {type}, not a string: give the optimizer '
        "a sentence (str)."
    ),
    "return.scores_not_dict": (
        'The "scores" value {value} is a {type}, not a dict: map names to numbers, '
        'e.g. {{"format": 1.0}}.'
    ),
    "return.score_name_not_str": (
        'A key of "scores" is {value} (a {type}): name each score with a string.'
    ),
    "return.named_score_type": (
        'The named score "{name}" is {value} (a {type}), not a number: give every entry of '
        '"scores" a number.'
    ),
    "return.named_score_bool": (
        'The named score "{name}" is a bool ({value}): use 1.0 or 0.0 instead.'
    ),
    "return.named_score_nan": 'The named score "{name}" is NaN: give a finite number.',
    "return.named_score_inf": (
        'The named score "{name}" is infinite ({value}): give a finite number.'
    ),
    # REWARD_SPEC.
    "spec.none": "No REWARD_SPEC: the score is used as it is.",
    "spec.not_dict": "REWARD_SPEC is a {type}, not a dict.",
    "spec.unknown_key": (
        "REWARD_SPEC has an unknown key {key}: the keys are weights, accuracy, speed and cost "
        "(did you mean {hint!r}?)."
    ),
    "spec.weights_missing": (
        'REWARD_SPEC["weights"] is {value}: give a dict with accuracy, speed and cost weights.'
    ),
    "spec.weight_missing": (
        'REWARD_SPEC["weights"] has no "{part}" weight: give it one (0 or more).'
    ),
    "spec.unknown_weight": (
        'REWARD_SPEC["weights"] has an unknown key {key}: the weights are accuracy, speed and cost.'
    ),
    "spec.weights_all_zero": ("All REWARD_SPEC weights are 0: give at least one a value above 0."),
    "spec.not_number": "REWARD_SPEC {where} is {value}, not a number.",
    "spec.negative_weight": "REWARD_SPEC {where} is {value}: a weight must be 0 or more.",
    "spec.reference_not_positive": "REWARD_SPEC {where} is {value}: a reference must be above 0.",
    "spec.section_missing": (
        'REWARD_SPEC has no "{part}" section: add {{"reference": ...}} for {part}.'
    ),
    "spec.section_not_dict": 'REWARD_SPEC["{part}"] is {value}, not a dict.',
    "spec.unknown_option": (
        'REWARD_SPEC["{part}"] has an unknown key {key}: the only option is "reference".'
    ),
    "spec.reference_missing": (
        'REWARD_SPEC["{part}"] has no "reference": speed.reference is in milliseconds, '
        "cost.reference in US dollars; both must be positive."
    ),
    # Signature and loading.
    "signature.missing": "The metric defines no function named score.",
    "signature.not_callable": "score is {value}, not a function.",
    "signature.wrong": (
        "{found} cannot be called as score(input, output, expected) nor as score(input, output)."
    ),
    "loads.no_file": "No metric file at {path}.",
    "loads.name_error": (
        "The metric uses the name {name!r}, which it does not define. The metric runs as its "
        "own module, exactly as metric.py: define or import {name!r} in the metric itself."
    ),
    "loads.syntax": "The metric has a syntax error on line {line}: {error}.",
    "loads.raised": "The metric failed while loading: {error}.",
    # One case.
    "run.not_used": "No run function: outputs come from the column {column!r}.",
    "case.run_raised": "run(artifact, input) raised {error}",
    "case.run_timeout": "run(artifact, input) took longer than {seconds} s and was stopped.",
    "case.metric_timeout": "score took longer than the {seconds} s metric time limit.",
    "case.metric_raised": "score raised {error}",
    "case.name_error": (
        "score uses the name {name!r}, which the metric does not define. The metric runs as "
        "its own module, exactly as metric.py: define or import {name!r} in the metric itself."
    ),
    "case.exited": "score called sys.exit({code}); return a pair instead.",
    "case.recursion": "score recursed without end (RecursionError).",
    # Feedback advice (advice.py): never fails the check.
    "advice.empty": (
        "Empty feedback {cases}: the optimizer learns nothing from it. Say what is wrong and "
        "what a correct output looks like, for example: {example}"
    ),
    "advice.generic": (
        "Generic feedback {feedback} {cases}: it says neither what is wrong nor what a correct "
        "output looks like. Write, for example: {example}"
    ),
    "advice.same_feedback": (
        "The same feedback {feedback} {cases}, which score {scores}: the optimizer cannot tell "
        "what made the difference. Say what each output got right and what it missed."
    ),
    "advice.constant_score": (
        "All {count} cases have the score {score}. A score that never varies gives the "
        "optimizer nothing to climb: check more cases (--cases N), and if it still does not "
        "move, make the metric tell outputs apart (compare them with the expected value, give "
        "partial credit)."
    ),
    "advice.constant_accuracy": (
        "All {count} cases have the accuracy {score}. An accuracy that never varies gives the "
        "optimizer nothing to climb: check more cases (--cases N), and if it still does not "
        "move, make the metric tell outputs apart (compare them with the expected value, give "
        "partial credit)."
    ),
    "advice.no_target": (
        "The feedback {cases} comes with a low score but does not say what a correct output "
        "looks like: name the expected value or the fix, for example: {example}"
    ),
    "advice.hint": (
        "The optimizer (GEPA, DSPy GEPA, Auto) reads only the feedback, never the metric's "
        "source: say what is wrong, what a correct output looks like, and why."
    ),
    "advice.case": "on case {ids}",
    "advice.cases": "on cases {ids}",
    "advice.more": "(+{count} more)",
    "advice.example": '"Expected {expected}, got {output}. <why>"',
    "advice.example_no_expected": '"<what is wrong>. A correct output would <what it needs>."',
    # Reports.
    "report.check_passed": "Contract check passed",
    "report.check_failed": "Contract check failed",
    "report.eval_passed": "Evaluation finished",
    "report.eval_failed": "Evaluation finished with failures",
    "report.interrupted": "Interrupted: showing the {done} of {total} cases that finished.",
    "report.metric": "metric {name!r}",
    "report.cases": "{count} case(s)",
    "report.mean": "mean score",
    "report.more_cases": "… and {count} more case(s): report.to_frame() has them all.",
    "report.worst": "Worst cases first",
    "report.fix": "How to fix",
    "report.advice": "Advice",
    "col.case": "case",
    "col.input": "input",
    "col.output": "output",
    "col.expected": "expected",
    "col.score": "score",
    "col.scores": "named scores",
    "col.feedback": "feedback (what the optimizer reads)",
    "col.metric_ms": "metric",
    "col.run_ms": "run",
    "col.cost": "cost",
    "col.judge_cost": "judge cost",
    "col.result": "result",
    "status.passed": "passed",
    "status.failed": "failed",
    "status.skipped": "skipped",
    "status.advice": "advice",
    "value.not_measured": "not measured",
    "value.cached": "cached",
    "failed_at": "failed at {step}",
    # Live views (widgets/).
    "view.running_check": "Running the contract check…",
    "view.running_eval": "Evaluation running…",
    "view.waiting": "Starting…",
    "view.progress": "{done} of {total} cases",
    "view.failed_count": "{count} failed",
    "view.pending": "pending",
    "view.col_measures": "time and cost",
    "view.empty_feedback": "(empty feedback: the optimizer learns nothing from this case)",
    "view.traceback": "Traceback (your code)",
    "view.more_chars": "… ({count} more characters)",
    "view.showing": "Showing {shown} of {total} cases.",
    "view.no_cases": "No case matches.",
    "view.filter": "Show",
    "view.filter_all": "all cases ({count})",
    "view.filter_failed": "failed ({count})",
    "view.filter_step": "failed at {step} ({count})",
    "view.filter_passed": "passed ({count})",
    "view.reward_title": "Reward decomposition",
    "view.reward_help": (
        "Each bar is one case's reward: weight × component for accuracy, speed and cost, "
        "stacked. The components come from the check; nothing is re-run."
    ),
    "view.mean_reward": "mean reward",
    "view.over_cases": "{count} case(s)",
    "view.no_reward": "no reward",
    "view.lowest": "Lowest rewards with these weights:",
    "view.try_weights": "Try other weights (rescaled to sum to 1):",
    "view.write_weights": "REWARD_SPEC weights to write",
    "view.weights_same": "as in your metric",
    "view.reset": "Reset",
    "view.named_title": "Named scores",
    "view.mean": "mean",
    "part.accuracy": "accuracy",
    "part.speed": "speed",
    "part.cost": "cost",
    # Magics (%%skynet_metric, %skynet_metric, %skynet_check, %skynet_eval).
    "magic.registered": "Metric {name!r} registered: {call}.",
    "magic.spec_weights": (
        "REWARD_SPEC weights (rescaled to sum to 1): accuracy {accuracy}, speed {speed}, "
        "cost {cost}."
    ),
    "magic.spec_references": "References: speed {speed} ms, cost {cost} USD.",
    "magic.spec_accuracy_reference": (
        "Accuracy is an error (lower is better), with reference {reference}."
    ),
    "magic.list_none": (
        "No metric registered yet: run a %%skynet_metric cell, or %skynet_metric --load metric.py."
    ),
    "magic.col_name": "name",
    "magic.col_call": "call form",
    "magic.col_spec": "REWARD_SPEC",
    "magic.col_source": "source file",
    "magic.yes": "yes",
    "magic.no": "no",
    "magic.source_cell": "(notebook cell)",
    "magic.no_metric": (
        "No metric registered yet: run a %%skynet_metric cell first, "
        "or %skynet_metric --load metric.py."
    ),
    "magic.unknown_metric": (
        "No metric named {name!r}; the registered metrics are: {known}. "
        "Pick one with --metric NAME."
    ),
    "magic.not_found": "{option} {text}: no notebook variable or file by that name.",
    "magic.eval_failed": (
        "{option} {text}: no file by that name, and as an expression in the notebook it "
        "raised {error}"
    ),
    "magic.not_function": "--run {text} is a {type}, not a function run(artifact, input).",
    "magic.not_executor": (
        "--executor {text} is a {type}, not a concurrent.futures.Executor "
        "(for Dask: client.get_executor())."
    ),
    "magic.no_outputs": (
        "Say where the outputs come from: --run FUNC (with --artifact EXPR), "
        "or --output-column COL."
    ),
    "magic.both_outputs": "Give --run or --output-column, not both.",
    "magic.save_needs_cell": (
        "--save and --force go with the cell magic: put %%skynet_metric on the first line "
        "of the metric's cell."
    ),
    "magic.force_needs_save": "--force goes with --save PATH: it allows overwriting PATH.",
    "magic.load_in_cell": (
        "--load registers a file: use the line magic %skynet_metric --load PATH [NAME], "
        "not the cell magic."
    ),
    "magic.run_file_failed": "The run file {path} failed while loading: {error}",
    "magic.saved": "Saved to {path}.",
    "magic.save_unchanged": "{path} already holds this metric: nothing written.",
    "magic.save_refused": (
        "Not saved: {path} exists with different content and was left untouched. "
        "Add --force to overwrite it."
    ),
    "magic.save_failed": "Could not save to {path}: {error}",
    "magic.rechecked": (
        "Re-ran the last check of {name!r} on its cached outputs: {outcome} "
        "The check's output is updated in place."
    ),
    "magic.recheck_failed": "Could not re-run the last check of {name!r}: {error}",
    "magic.run_not_repeated": (
        "an edited metric is re-checked on cached outputs only, and this case has none (its "
        "last run failed). Run %skynet_check to call run again."
    ),
}
