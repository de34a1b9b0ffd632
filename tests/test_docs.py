"""Every CLI command has help text and is documented in README.md."""

from __future__ import annotations

from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from forest.cli import cli

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
COMMANDS = sorted(cli.commands)


def test_there_are_commands() -> None:
    assert {"learn", "extract", "sites", "show", "forget", "demo"} <= set(COMMANDS)


@pytest.mark.parametrize("name", COMMANDS)
def test_command_has_help(name: str) -> None:
    command = cli.commands[name]
    assert command.help and command.help.strip()
    result = CliRunner().invoke(cli, [name, "--help"])
    assert result.exit_code == 0 and result.stdout.startswith(f"Usage: cli {name}")


@pytest.mark.parametrize("name", COMMANDS)
def test_command_options_have_help(name: str) -> None:
    for param in cli.commands[name].params:
        if isinstance(param, click.Option):
            assert param.help, f"{name} {param.opts} has no help"


@pytest.mark.parametrize("name", COMMANDS)
def test_command_is_in_readme(name: str) -> None:
    assert f"forest {name}" in README


def test_readme_test_command_is_what_ci_runs() -> None:
    ci = (Path(__file__).resolve().parent.parent / ".ci" / "run").read_text(encoding="utf-8")
    assert "python -m pytest" in ci and "python -m pytest" in README
