"""The project keeps itself honest: lint, format and strict types are clean, the README's
test command is the one CI runs, and the README documents every house option."""

from __future__ import annotations

import dataclasses
import re
import subprocess
import sys
from pathlib import Path

import pytest

from spades.rules import Rules

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=300
    )


@pytest.mark.parametrize(
    "command",
    [("ruff", "check", "."), ("ruff", "format", "--check", "."), ("mypy", "spades")],
    ids=["ruff-check", "ruff-format", "mypy-strict"],
)
def test_lint_format_and_strict_types_are_clean(command: tuple[str, ...]) -> None:
    done = _run(*command)
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_runs_in_strict_mode() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert re.search(r"\[tool\.mypy\][^\[]*strict = true", pyproject)


def _readme_test_command() -> str:
    section = README.split("Install and run the tests", 1)[1]
    block = re.search(r"```bash\n(.+?)\n```", section, re.S)
    assert block is not None
    return block.group(1).strip()


def test_readme_test_command_is_the_one_ci_runs() -> None:
    command = _readme_test_command()
    assert "pytest" in command
    ci_lines = [
        line.strip()
        for line in (ROOT / ".ci" / "run").read_text().splitlines()
        if line.strip() and not line.strip().startswith("#")
    ]
    assert command in ci_lines


def test_readme_documents_every_house_option_with_its_default() -> None:
    rows = dict(re.findall(r"^\| `(\w+)` \| ([^|]+?) \|", README, re.M))
    for field in dataclasses.fields(Rules):
        assert field.name in rows, f"README.md does not document {field.name}"
        default = getattr(Rules(), field.name)
        shown = f'`"{default}"`' if isinstance(default, str) else str(default)
        assert rows[field.name] == shown, field.name
