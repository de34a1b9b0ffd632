"""`python -m forest`: the same as the `forest` command."""

from forest.cli import cli

if __name__ == "__main__":
    cli(prog_name="forest")
