# lit configuration for the cfmem regression tests.
#
# Run from the repository root with `.venv/bin/lit -v lit_tests`. The tools the
# RUN lines call (xdsl-opt, filecheck, cfmem) are taken from the bin directory of
# the Python interpreter running lit, so the venv's versions are used even when
# the venv is not activated.

import os
import sys

import lit.formats

config.name = "cfmem"
# lit's internal shell: lit >= 23 rejects ShTest(True) (the external shell is
# deprecated and goes away in lit 24), and the RUN lines only need pipes.
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.excludes = ["lit.cfg.py", "Inputs"]

config.test_source_root = os.path.dirname(__file__)

bin_dir = os.path.dirname(sys.executable)
config.environment["PATH"] = os.pathsep.join(
    [bin_dir, config.environment.get("PATH", os.environ.get("PATH", ""))]
)

# The tools import cfmem from the checkout these tests belong to, not from wherever the
# venv's editable install points (another worktree would test another cfmem).
repo_root = os.path.abspath(os.path.join(config.test_source_root, ".."))
config.environment["PYTHONPATH"] = os.pathsep.join(
    [repo_root, *filter(None, [os.environ.get("PYTHONPATH")])]
)

examples_dir = os.path.abspath(os.path.join(config.test_source_root, "..", "examples"))
config.substitutions.append(("%examples", examples_dir))
