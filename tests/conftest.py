import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import settings

# The same examples on every run and machine: a property test fails for a reason in the
# code, never for the luck of one run's draws.
settings.register_profile("cfmem", derandomize=True, database=None)
settings.load_profile("cfmem")

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
CFMEM = [sys.executable, "-m", "cfmem.tools.cli"]


def run_cfmem(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """Run the cfmem command line as a user would; capture its output."""
    return subprocess.run([*CFMEM, *args], capture_output=True, text=True, cwd=cwd)


@pytest.fixture
def cfmem():
    return run_cfmem
