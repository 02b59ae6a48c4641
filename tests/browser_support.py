"""A real JupyterLab driven by the system Chromium (recipe: shared/testing/BROWSER.md).

``running_lab`` starts a server on 127.0.0.1 with a fresh HOME, a random token
and a free port, and stops it by its PID; ``chromium_page`` opens a Playwright
page in ``/usr/bin/chromium``; ``require_browser`` skips when either is
missing, except under CI, where a missing browser fails the run.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
START_TIMEOUT = 90.0


def browser_missing() -> str | None:
    """Why a real-browser test cannot run here, or None when it can."""
    if not (os.path.exists(CHROMIUM) or shutil.which("chromium")):
        return f"no Chromium at {CHROMIUM} (apt-get install -y chromium)"
    for module in ("playwright", "jupyterlab", "ipykernel"):
        try:
            __import__(module)
        except ImportError:
            return f"the Python package {module!r} is not installed"
    return None


def require_browser() -> None:
    """Skip when no browser can run, but fail under CI: there the test must run."""
    reason = browser_missing()
    if reason is None:
        return
    if os.environ.get("CI"):
        pytest.fail(f"CI is set and the real-browser test cannot run: {reason}")
    pytest.skip(reason)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass(frozen=True)
class Lab:
    url: str
    token: str
    root: Path
    home: Path
    log: Path

    def open_url(self, notebook: str, workspace: str | None = None) -> str:
        """The notebook's URL; a named ``workspace`` opens it alone (no tabs of earlier pages)."""
        if workspace:
            return f"{self.url}/lab/workspaces/{workspace}/tree/{notebook}?token={self.token}"
        return f"{self.url}/lab/tree/{notebook}?token={self.token}"

    def log_text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""


def _quiet_settings(home: Path) -> None:
    """No news pop-up, no update check: nothing but the notebook on screen."""
    settings = home / ".jupyter" / "lab" / "user-settings" / "@jupyterlab" / "apputils-extension"
    settings.mkdir(parents=True, exist_ok=True)
    (settings / "notification.jupyterlab-settings").write_text(
        json.dumps({"fetchNews": "false", "checkForUpdates": False})
    )
    # Every cell rendered: JupyterLab 4 skips drawing cells out of view by default, and a
    # test reading a tall notebook's text (or its layout) would read empty boxes.
    notebook = home / ".jupyter" / "lab" / "user-settings" / "@jupyterlab" / "notebook-extension"
    notebook.mkdir(parents=True, exist_ok=True)
    (notebook / "tracker.jupyterlab-settings").write_text(json.dumps({"windowingMode": "none"}))


def lab_env(home: Path) -> dict[str, str]:
    env = dict(os.environ)
    for name in list(env):
        if name.startswith(("JUPYTER", "IPYTHON")):
            del env[name]
    env["HOME"] = str(home)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env["SKYNET_LANG"] = "en"
    return env


@contextmanager
def running_lab(root: Path, home: Path) -> Iterator[Lab]:
    """JupyterLab serving ``root``; stopped (by PID) on exit."""
    home.mkdir(parents=True, exist_ok=True)
    _quiet_settings(home)
    token = secrets.token_hex(16)
    port = free_port()
    log = home / "jupyterlab.log"
    command = [
        sys.executable,
        "-m",
        "jupyterlab",
        "--no-browser",
        "--allow-root",
        "--ip=127.0.0.1",
        f"--port={port}",
        "--ServerApp.port_retries=0",
        f"--ServerApp.token={token}",
        f"--ServerApp.root_dir={root}",
        "--LabApp.expose_app_in_browser=True",
    ]
    with log.open("wb") as sink:
        process = subprocess.Popen(
            command, env=lab_env(home), cwd=root, stdout=sink, stderr=subprocess.STDOUT
        )
    lab = Lab(f"http://127.0.0.1:{port}", token, root, home, log)
    try:
        _wait_ready(lab, process)
        yield lab
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=15)


def _wait_ready(lab: Lab, process: subprocess.Popen) -> None:
    request = urllib.request.Request(
        f"{lab.url}/api/status", headers={"Authorization": f"token {lab.token}"}
    )
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"JupyterLab exited ({process.returncode}):\n{lab.log_text()}")
        try:
            with urllib.request.urlopen(request, timeout=2) as answer:
                if answer.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.2)
    raise RuntimeError(f"JupyterLab did not start in {START_TIMEOUT:g} s:\n{lab.log_text()}")


@contextmanager
def chromium_page(home: Path, *, width: int = 1440, height: int = 1100) -> Iterator[Any]:
    """A Playwright page in the system Chromium (Playwright's own download fails here)."""
    from playwright.sync_api import sync_playwright

    env = dict(os.environ, HOME=str(home))
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True, env=env
        )
        try:
            context = browser.new_context(
                viewport={"width": width, "height": height}, device_scale_factor=1
            )
            yield context.new_page()
        finally:
            browser.close()


def write_notebook(path: Path, cells: list[str]) -> None:
    """A notebook of code cells (nbformat 4) with the python3 kernel."""
    import nbformat

    notebook = nbformat.v4.new_notebook()
    notebook.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3 (ipykernel)",
        "language": "python",
    }
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in cells]
    nbformat.write(notebook, path)


def wait_kernel_idle(page: Any, timeout_ms: float = 90_000) -> None:
    """Wait for the status bar's "(ipykernel) | Idle": a kernel exists and is idle."""
    page.wait_for_function(
        """() => [...document.querySelectorAll('.jp-StatusBar-TextItem')]
                 .some(e => /\\| Idle/.test(e.textContent))""",
        timeout=timeout_ms,
    )


def run_all_cells(page: Any) -> None:
    page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")


def set_theme(page: Any, theme: str) -> None:
    """Switch JupyterLab's theme ("JupyterLab Dark", "JupyterLab Light") and wait for it."""
    page.evaluate(
        f"window.jupyterapp.commands.execute('apputils:change-theme', {{theme: {theme!r}}})"
    )
    page.wait_for_function(f"() => document.body.dataset.jpThemeName === {theme!r}", timeout=30_000)
    page.wait_for_timeout(500)  # the theme's stylesheet applies


@contextmanager
def dark_theme(page: Any) -> Iterator[Any]:
    """JupyterLab Dark while inside (a lab-wide setting: set back to Light on the way out)."""
    set_theme(page, "JupyterLab Dark")
    try:
        background = page.evaluate(
            "getComputedStyle(document.querySelector('.jp-Notebook')).backgroundColor"
        )
        assert background != "rgb(255, 255, 255)", "the dark theme does not apply"
        yield page
    finally:
        set_theme(page, "JupyterLab Light")


# WCAG 2 contrast of a text's colour (blended over its background) with that background.
CONTRAST_JS = """
(el) => {
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 1;
  const ctx = canvas.getContext('2d', {willReadFrequently: true});
  const rgba = (css) => {  // any CSS colour (rgb(), color(srgb ...), color-mix results)
    ctx.clearRect(0, 0, 1, 1);
    ctx.fillStyle = '#000'; ctx.fillStyle = css; ctx.fillRect(0, 0, 1, 1);
    const d = ctx.getImageData(0, 0, 1, 1).data;
    return [d[0], d[1], d[2], d[3] / 255];
  };
  let node = el, bg = null;
  while (node && node.nodeType === 1) {
    const c = rgba(getComputedStyle(node).backgroundColor);
    if (c[3] >= 0.99 && getComputedStyle(node).backgroundColor !== 'rgba(0, 0, 0, 0)') {
      bg = c; break;
    }
    node = node.parentElement;
  }
  bg = bg || [255, 255, 255, 1];
  const fg = rgba(getComputedStyle(el).color);
  const mixed = [0, 1, 2].map(i => fg[i] * fg[3] + bg[i] * (1 - fg[3]));
  const lum = (c) => {
    const v = c.map(x => {
      x /= 255;
      return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2];
  };
  const [a, b] = [lum(mixed), lum(bg.slice(0, 3))].sort((x, y) => y - x);
  return {ratio: (a + 0.05) / (b + 0.05), color: getComputedStyle(el).color,
          background: `rgb(${bg.slice(0, 3).join(',')})`, text: el.innerText.slice(0, 60)};
}
"""


def text_contrast(locator: Any) -> dict[str, Any]:
    """The WCAG contrast of the element's text with what is behind it, and both colours."""
    found: dict[str, Any] = locator.evaluate(CONTRAST_JS)
    return found


def low_contrast(measured: dict[str, Any], minimum: float = 4.5) -> dict[str, dict[str, Any]]:
    """Of ``{name: locator}``, the texts whose contrast is under ``minimum`` (printed with -s)."""
    results = {name: text_contrast(locator) for name, locator in measured.items()}
    for name, found in results.items():  # shown with -s: the measurements behind the check
        print(f"contrast {name}: {found['ratio']:.2f} ({found['color']} on {found['background']})")
    return {name: found for name, found in results.items() if found["ratio"] < minimum}


def low_contrast_in_dark(page: Any, measured: dict[str, Any], view: Any, picture: Path) -> dict:
    """In JupyterLab Dark: the texts of ``measured`` under a contrast of 4.5 (each one
    printed), and a screenshot of ``view`` written to ``picture``."""
    with dark_theme(page):
        low = low_contrast(measured, 4.5)
        view.screenshot(path=str(picture))
    return low
