import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
CFMEM = [sys.executable, "-m", "cfmem.tools.cli"]


def run_cfmem(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """Run the cfmem command line as a user would; capture its output."""
    return subprocess.run([*CFMEM, *args], capture_output=True, text=True, cwd=cwd)


@pytest.fixture
def cfmem():
    return run_cfmem
