"""argparse with lfcheck's error style (DESIGN §6): a bad argument is one line on
stderr, "PROG: MESSAGE (try --help)", and exit status 2 — not argparse's usage
block. Shared by the Python commands (mutants, bench)."""
import argparse
import sys


class OneLineParser(argparse.ArgumentParser):
    def error(self, message):
        sys.stderr.write(f"{self.prog}: {message} (try --help)\n")
        sys.exit(2)
