"""Each surface names its own way out of an unusable run cache (issue 36, item 9): the
notebook ``%skynet_cache --clear``, the command line ``--cache-dir``, Python ``clear()``;
and no sentence speaks of "this check" when none runs."""

from __future__ import annotations

from pathlib import Path

import pytest

from skynet_jupyter.i18n import surface
from skynet_jupyter.models.call_store import CallStore


@pytest.mark.parametrize(
    ("where", "fix", "never"),
    [
        ("python", "clear() on the RunCache", "%skynet_cache"),
        ("notebook", "run %skynet_cache --clear", "--cache-dir"),
        ("cli", "give another --cache-dir", "%skynet_cache"),
    ],
)
def test_an_unusable_cache_names_the_fix_of_the_surface_it_is_used_from(
    tmp_path: Path, where: str, fix: str, never: str
):
    path = tmp_path / "runs.sqlite"
    path.write_bytes(b"not a database" * 300)
    said: list[str] = []
    with surface(where):
        assert CallStore(path, warn=said.append).get("k") is None
    (warning,) = said
    assert fix in warning and never not in warning
    assert "this check" not in warning


def test_an_unknown_surface_is_refused():
    with pytest.raises(ValueError, match="Unknown surface 'web'"):
        surface("web")
