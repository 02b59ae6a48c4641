"""``skynet-check``: the contract check from a terminal, for CI and pre-submit hooks.

Exit codes: 0 the check passed, 1 the contract check failed, 2 a usage error
(missing file, unknown column, bad option).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from .contract import ContractError
from .dataset import DataError
from .engine import check, evaluate
from .metric import load_function

EXIT_PASSED, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="skynet-check",
        description="Run the Skynet metric contract check on a metric.py file.",
        epilog=(
            "example: skynet-check metric.py --data cases.csv --outputs label "
            "--run run.py:run --artifact prompt.txt"
        ),
    )
    parser.add_argument("metric", help="the metric file (metric.py) defining score()")
    parser.add_argument("--data", required=True, help="cases: .csv, .tsv, .jsonl, .json, .parquet")
    parser.add_argument("--outputs", help="Output column(s), comma-separated: they form expected")
    parser.add_argument("--inputs", help="input column(s), comma-separated (default: the rest)")
    parser.add_argument("--split", help="use only the rows whose 'split' column is this")
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--run", metavar="FILE.py:FUNC", help="outputs from run(artifact, input)")
    source.add_argument("--output-column", metavar="COL", help="outputs already in the data")
    parser.add_argument("--artifact", metavar="FILE", help="the artifact passed to run (its text)")
    parser.add_argument(
        "--cases",
        type=int,
        default=None,
        help="how many cases (default: 3; with --all: every case)",
    )
    parser.add_argument("--all", action="store_true", help="evaluate every case, not just 3")
    parser.add_argument(
        "--timeout",
        type=float,
        default=60,
        help="metric time limit in seconds, 1..600 (default 60)",
    )
    parser.add_argument("--lang", choices=("en", "fr", "pt"), help="language of the report")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        run = load_function(args.run) if args.run else None
        artifact = None
        if args.artifact is not None:
            path = Path(args.artifact)
            if not path.is_file():
                raise FileNotFoundError(f"No artifact file at {args.artifact!r}.")
            artifact = path.read_text(encoding="utf-8")
        if not Path(args.metric).is_file():
            raise FileNotFoundError(f"No metric file at {args.metric!r}.")
        options = dict(
            outputs=args.outputs,
            inputs=args.inputs,
            split=args.split,
            run=run,
            artifact=artifact,
            output_column=args.output_column,
            timeout=args.timeout,
            lang=args.lang,
        )
        if args.all:
            report = evaluate(Path(args.metric), args.data, cases=args.cases, **options)
        else:
            report = check(Path(args.metric), args.data, cases=args.cases or 3, **options)
    except (DataError, FileNotFoundError, ValueError, TypeError, AttributeError) as problem:
        print(f"skynet-check: {problem}", file=sys.stderr)
        return EXIT_USAGE
    except ContractError as problem:  # a run file that fails to load
        print(f"skynet-check: {problem}", file=sys.stderr)
        return EXIT_USAGE
    if args.json:
        print(json.dumps(report.to_dict(), ensure_ascii=False, indent=2))
    else:
        print(report)
    return EXIT_PASSED if report.passed else EXIT_FAILED


if __name__ == "__main__":
    sys.exit(main())
