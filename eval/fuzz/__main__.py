"""``python -m eval.fuzz``: see eval.fuzz.command."""

import sys

from eval.fuzz.command import main

if __name__ == "__main__":
    sys.exit(main())
