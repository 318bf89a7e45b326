"""The double-click app's entry script: the `fivetricks` command (tournament/cli.py)."""

from tournament.cli import main

if __name__ == "__main__":
    main()
