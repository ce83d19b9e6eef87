"""Entry point: `python main.py` plays the bundled rite; `python main.py --help` lists commands."""
import sys

from viz.cli.main import main

if __name__ == "__main__":
    sys.exit(main())
