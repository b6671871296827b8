"""The project keeps itself honest: CI lints, checks the format and strict types before the
tests and runs the README's test command, both README commands install the pinned versions,
the `pytest` command collects the tests as `python -m pytest` does, the app's Streamlit
settings hide errors from players, and the README documents every house option."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import subprocess
import sys
from importlib import metadata
from pathlib import Path

from conftest import run_pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from spades.engine.record import MAX_BYTES
from spades.engine.rules import Rules

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()
CONSTRAINTS = "constraints.txt"
#: Lint, format, strict types and the import layers: .ci/run's own steps, each once, before
#: the tests.
CHECKS = (
    ".venv/bin/ruff check .",
    ".venv/bin/ruff format --check .",
    ".venv/bin/mypy spades",
    ".venv/bin/lint-imports",
)

#: A test module of each way the tests share code: a helper module and another test module
#: imported by bare name (test_cutthroat_jokers.py), conftest (test_sealed.py), and a module
#: of the package's doctests, which must be this checkout's.
COLLECTED = ("tests/test_cutthroat_jokers.py", "tests/test_sealed.py", "spades/engine/cards.py")


def _readme_command(heading: str) -> str:
    section = README.split(heading, 1)[1]
    block = re.search(r"```bash\n(.+?)\n```", section, re.S)
    assert block is not None
    return block.group(1).strip()


def _ci_lines() -> list[str]:
    """The commands of .ci/run, one a line (a line ending in a backslash goes on)."""
    text = (ROOT / ".ci" / "run").read_text().replace("\\\n", " ")
    return [
        " ".join(line.split())
        for line in text.splitlines()
        if line.strip() and not line.strip().startswith("#")
    ]


def test_readme_test_command_is_the_one_ci_runs() -> None:
    command = _readme_command("Install and run the tests")
    assert "pytest" in command
    assert command in _ci_lines()


def test_ci_lints_checks_the_format_and_types_before_the_tests() -> None:
    lines = _ci_lines()
    assert lines[0] == "set -euo pipefail", "a failing step must fail CI"
    assert "export CI=true" in lines, "tests/conftest.py fails a browser test without Chromium"
    tests = lines.index(_readme_command("Install and run the tests"))
    for step in CHECKS:
        assert step in lines[:tests], f".ci/run does not run {step!r} before the tests"


def test_ci_runs_the_store_on_postgresql_too() -> None:
    lines = _ci_lines()
    tests = lines.index(_readme_command("Install and run the tests"))
    started = next(
        i for i, line in enumerate(lines) if line.startswith("as_postgres") and "start" in line
    )
    exported = next(
        i for i, line in enumerate(lines) if line.startswith("export SPADES_TEST_POSTGRES=")
    )
    assert started < exported < tests
    assert any(line.startswith("trap ") and "stop" in line for line in lines[:tests])


def test_mypy_runs_in_strict_mode() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert re.search(r"\[tool\.mypy\][^\[]*strict = true", pyproject)


def test_both_readme_commands_and_ci_install_the_pinned_versions() -> None:
    app = _readme_command("Install and start the app")
    tests = _readme_command("Install and run the tests")
    assert f"pip install -q -c {CONSTRAINTS} -e . " in app
    assert f"pip install -q -c {CONSTRAINTS} -e '.[test]' " in tests
    assert all(f"-c {CONSTRAINTS}" in line for line in _ci_lines() if "pip install" in line), (
        "every install in .ci/run uses the constraints file"
    )


def _pins() -> dict[str, str]:
    pins = {}
    for line in (ROOT / CONSTRAINTS).read_text().splitlines():
        if line and not line.startswith("#"):
            name, sep, version = line.partition("==")
            assert sep and version, f"{CONSTRAINTS}: {line!r} is not pinned with =="
            pins[canonicalize_name(name)] = version
    return pins


def _installed_by(name: str, extras: frozenset[str] = frozenset()) -> set[str]:
    """Every distribution that installing ``name[extras]`` brings in, by its metadata."""
    found: set[str] = set()
    todo = [(name, extras)]
    done: set[tuple[str, frozenset[str]]] = set()
    while todo:
        name, extras = todo.pop()
        if (canonicalize_name(name), extras) in done:
            continue
        done.add((canonicalize_name(name), extras))
        found.add(canonicalize_name(name))
        for text in metadata.requires(name) or []:
            requirement = Requirement(text)
            marker = requirement.marker
            if marker is None or any(marker.evaluate({"extra": e}) for e in extras or {""}):
                todo.append((requirement.name, frozenset(requirement.extras)))
    return found


def test_every_package_the_app_and_its_tests_install_is_pinned() -> None:
    pins = _pins()
    installed = _installed_by("spades", frozenset({"test"})) - {"spades"}
    assert sorted(installed - pins.keys()) == [], f"not pinned in {CONSTRAINTS}"
    drift = {
        name: (pins[name], metadata.version(name))
        for name in installed
        if metadata.version(name) != pins[name]
    }
    assert drift == {}, f"installed versions differ from {CONSTRAINTS}: (pinned, installed)"


def test_the_app_hides_errors_caps_uploads_and_sends_no_statistics(tmp_path: Path) -> None:
    # Streamlit's own loader, in a fresh process started where `streamlit run` starts, with
    # an empty home so that only the project's .streamlit/config.toml counts.
    script = (
        "import json, sys\nfrom streamlit import config\n"
        "print(json.dumps({key: config.get_option(key) for key in sys.argv[1:]}))"
    )
    keys = (
        "client.showErrorDetails",
        "client.toolbarMode",
        "server.maxUploadSize",
        "browser.gatherUsageStats",
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("STREAMLIT_")}
    done = subprocess.run(
        [sys.executable, "-c", script, *keys],
        cwd=ROOT,
        env={**env, "HOME": str(tmp_path)},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    options = json.loads(done.stdout)
    # "none": players see a generic message, never an exception's type, message or traceback.
    assert options["client.showErrorDetails"] == "none"
    # Players get no Deploy button and no developer menu.
    assert options["client.toolbarMode"] == "viewer"
    # Game records are the only uploads: the cap admits the largest one the loader reads.
    assert options["server.maxUploadSize"] == 5
    assert options["server.maxUploadSize"] * 1_000_000 >= MAX_BYTES
    assert options["browser.gatherUsageStats"] is False


def test_readme_documents_every_house_option_with_its_default() -> None:
    rows = dict(re.findall(r"^\| `(\w+)` \| ([^|]+?) \|", README, re.M))
    for field in dataclasses.fields(Rules):
        assert field.name in rows, f"README.md does not document {field.name}"
        default = getattr(Rules(), field.name)
        shown = f'`"{default}"`' if isinstance(default, str) else str(default)
        assert rows[field.name] == shown, field.name


def test_the_pytest_command_collects_the_tests_of_this_checkout() -> None:
    # The `pytest` script puts its own folder first on sys.path, where `python -m pytest`
    # puts the working folder: only pyproject.toml's pythonpath lets the tests find their
    # helpers, and spades here rather than in a checkout an editable install points at.
    script = Path(sys.executable).with_name("pytest")
    assert script.exists(), f"no pytest command beside {sys.executable}"
    done = run_pytest("--collect-only", "-q", "-n", "0", *COLLECTED, command=[str(script)])
    assert done.returncode == 0, done.stdout + done.stderr
    for path in COLLECTED:
        assert f"{path}::" in done.stdout, done.stdout


def test_test_modules_import_their_helpers_by_bare_name() -> None:
    # One way: a helper imported both as `engine_helpers` and as `tests.engine_helpers`
    # would be two modules.
    by_package = [
        path.name
        for path in sorted((ROOT / "tests").glob("*.py"))
        if re.search(r"^\s*(from|import) tests\b", path.read_text(), re.M)
    ]
    assert by_package == [], "import tests' helpers as `from engine_helpers import ...`"
