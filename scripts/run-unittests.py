#!/usr/bin/env python3
"""Runs a folder's unittest tests and ends with one line, "N passed, N failed, N skipped".

    python3 scripts/run-unittests.py FOLDER

Exit 1 when a test failed or errored.
"""
import sys
import unittest

folder = sys.argv[1]
suite = unittest.defaultTestLoader.discover(folder, top_level_dir=folder)
result = unittest.TextTestRunner(verbosity=1).run(suite)
failed = len(result.failures) + len(result.errors)
skipped = len(result.skipped)
print(f"{result.testsRun - failed - skipped} passed, {failed} failed, {skipped} skipped")
sys.exit(1 if failed else 0)
