"""`python -m pytfweb ...`: the `pytfweb` command (pytfweb/cli.py) without the console script."""
import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
