"""The ONNX backend test data of the onnx wheel through cfmem: pass, refused (with why), wrong
or crash for each of the 149 cases of ``real``, ``pytorch-converted``, ``pytorch-operator`` and
``simple`` (cfmem.testing.onnx_backend: import, the reference and the checking flat interpreter
on every data set, within onnx's own tolerances).

    .venv/bin/python bench/onnx_backend.py [--out bench/results/onnx_backend.md]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from cfmem.testing import onnx_backend

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import environment, md_table, write_atomic  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(ROOT / "bench/results/onnx_backend.md"))
    args = parser.parse_args()
    began = time.perf_counter()
    outcomes = []
    for case in onnx_backend.cases():
        with tempfile.TemporaryDirectory() as work:
            outcome = onnx_backend.run_case(case, Path(work))
        outcomes.append(outcome)
        print(f"{outcome.status:8s} {case.label}", file=sys.stderr, flush=True)
    counts = Counter(o.status for o in outcomes)
    why = Counter(onnx_backend.REFUSALS.get(o.label, ("", "not listed"))[1] for o in outcomes if o.status == "refused")
    unexpected = [o for o in outcomes if (o.status == "refused") != (o.label in onnx_backend.REFUSALS) or o.status in ("wrong", "crash")]
    rows = [
        [o.label, o.status, str(o.sets), f"{o.seconds:.1f}", o.detail.replace("|", "/")[:160],
         onnx_backend.REFUSALS.get(o.label, ("", ""))[1] if o.status == "refused" else ""]
        for o in outcomes
    ]  # fmt: skip
    lines = [
        "# The ONNX backend test data through cfmem",
        "",
        f"`bench/onnx_backend.py`: {len(outcomes)} cases in {time.perf_counter() - began:.0f} s. Each is imported, run by the"
        " reference interpreter, planned with ping-pong DMA, lowered and run by the checking flat interpreter on every"
        " data set, against the expected outputs within onnx's tolerances for the case.",
        "",
        f"**{counts['pass']} pass, {counts['refused']} refused, {counts['wrong']} wrong, {counts['crash']} crash.**"
        f" Not as `REFUSALS` lists: {len(unexpected)}.",
        "",
        md_table(["refused because", "cases"], [[w, str(n)] for w, n in why.most_common()], "lr"),
        "",
        md_table(["case", "outcome", "data sets", "s", "refusal or difference", "why refused"], rows, "llrrll"),
        "",
        *(f"- {k}: {v}" for k, v in environment().items()),
    ]
    write_atomic(args.out, "\n".join(lines) + "\n")
    print("\n".join(lines[:8]))
    return 1 if unexpected else 0


if __name__ == "__main__":
    sys.exit(main())
