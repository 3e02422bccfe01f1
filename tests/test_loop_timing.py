"""Loops in the timing model: simulated to their steady state, then closed form.

The closed form must give exactly the cycles, the overlap bound and the regions of
simulating every iteration, and of a program with every loop written out as its
iterations (``cfmem.dma.events.iterations``), for 0, 1, 2, 3 and 7 trips: with and
without a transfer crossing the back edge, nested loops, an if in a loop. The chips
here have power-of-two rates, so every time is exact in floating point and "equal"
means equal. A loop of 10**9 trips is timed without running out of a 2 GB address
space, by ``cfmem report --timing`` and ``cfmem compile --budget``.
"""

from __future__ import annotations

import json
import resource
import subprocess
from collections import Counter

import numpy as np
import pytest

from cfmem.dma.events import Block, Compute, IfEvent, LoopEvent, Start, Wait, iterations
from cfmem.dma.timing import SAMPLED_ITERATIONS, Chip, RegionTime, Timeline, simulate
from cfmem.interp.flat import FlatInterpreter
from cfmem.interp.golden import MAX_ITERATIONS, InterpError, IterationLimit
from cfmem.ir_io import parse_module
from cfmem.passes.dma_events import function_events
from cfmem.passes.liveness import functions
from cfmem.pipeline import apply_pipeline
from conftest import CFMEM, EXAMPLES
from test_loops import FOUR_LAYERS

TRIPS = (0, 1, 2, 3, 7)
UNIT = Chip(name="unit", macs_per_cycle=1, move_bytes_per_cycle=1, dma_bytes_per_cycle=1.0,
            dma_latency_cycles=10, offchip_bytes_per_cycle=1.0, clock_mhz=1.0)  # fmt: skip


def start(token: str, nbytes: int, buffer: str = "buf") -> Start:
    return Start(token, buffer, ((0, nbytes),), nbytes)


def written_out(block: Block, path: dict) -> Block:
    """``block`` with every loop replaced by its iterations' events, one after another
    (``path`` gives each loop's trips; the checkers' unrolling, straight-line)."""
    out = Block(block.label)
    for e in block.events:
        if isinstance(e, LoopEvent):
            for iteration in iterations(e.body, path[e.label], e.reloads):
                out.events.extend(written_out(iteration, path).events)
        elif isinstance(e, IfEvent):
            out.events.append(IfEvent(e.label, [written_out(b, path) for b in e.branches]))
        else:
            out.events.append(e)
    return out


def runs(timeline: Timeline) -> Counter:
    """Every run of every region: (label, cycles, compute, transfer), repeats written out."""
    return Counter((r.label, r.end - r.start, r.compute, r.transfer) for r in timeline.regions for _ in range(r.repeats))


def assert_closed_form_exact(program: Block, chip: Chip, path: dict) -> Timeline:
    closed = simulate(program, chip, path)
    unrolled = simulate(program, chip, path, steady_state=False)
    assert closed.cycles == unrolled.cycles
    assert closed.bound == unrolled.bound
    assert runs(closed) == runs(unrolled)
    assert all(r.repeats == 1 for r in unrolled.regions)
    assert simulate(written_out(program, path), chip, path).cycles == closed.cycles
    return closed


# --- programs written by hand --------------------------------------------------------------


def one_loop(body: list, before: list = (), after: list = (), reloads: dict | None = None) -> Block:
    loop = LoopEvent("loop#0", Block("body", list(body)), reloads=reloads or {})
    return Block("@f", [*before, Compute("pre", macs=5), loop, Compute("post", macs=3), *after])


LOAD_AND_USE = [start("w", 40), Compute("a", macs=7), Wait("w"), Compute("b", macs=9, reads=("w",))]
"""Each iteration loads its weights and waits for them: nothing crosses the back edge."""

PREFETCH_ACROSS = [Wait("p"), Compute("use", macs=30, reads=("p",)), start("q", 60), Compute("tail", macs=4)]
"""Each iteration waits for the transfer the one before left running (``q`` reloads ``p``)
and starts the next one's."""

SLOW_DRAIN = [Compute("tick", macs=6)]
"""A long transfer before the loop runs on for several iterations, waited after it."""


@pytest.mark.parametrize("trips", TRIPS)
@pytest.mark.parametrize(
    "program",
    [
        one_loop(LOAD_AND_USE),
        one_loop(PREFETCH_ACROSS, before=[start("p", 60)], reloads={"p": "q"}),
        one_loop(SLOW_DRAIN, before=[start("long", 25)], after=[Wait("long")]),
    ],
    ids=["no-crossing", "prefetch-across-back-edge", "transfer-draining-over-iterations"],
)
def test_a_loop_costs_exactly_what_simulating_every_iteration_costs(program, trips):
    assert_closed_form_exact(program, UNIT, {"loop#0": trips})


def nested(inner_body: list) -> Block:
    inner = LoopEvent("loop#1", Block("inner", list(inner_body)))
    outer_body = Block("outer", [start("o", 20), Compute("x", macs=11), Wait("o"), inner,
                                 Compute("y", macs=2, reads=("o",))])  # fmt: skip
    return Block("@f", [LoopEvent("loop#0", outer_body), Compute("post", macs=1)])


@pytest.mark.parametrize("inner_trips", TRIPS)
@pytest.mark.parametrize("outer_trips", TRIPS)
def test_nested_loops_cost_exactly_what_simulating_every_iteration_costs(outer_trips, inner_trips):
    closed = assert_closed_form_exact(nested(LOAD_AND_USE), UNIT, {"loop#0": outer_trips, "loop#1": inner_trips})
    if outer_trips == 7 and inner_trips == 7:  # the inner body's region stands for all 49 runs
        assert sum(r.repeats for r in closed.regions if r.label == "inner") == 49
        assert len(closed.regions) < 49


def with_if_in_loop() -> Block:
    heavy = Block("then", [start("h", 30), Wait("h"), Compute("heavy", macs=50, reads=("h",))])
    light = Block("else", [Compute("light", macs=5)])
    body = Block("body", [Compute("test", macs=2), IfEvent("if#0", [heavy, light]), Compute("merge", macs=1)])
    return Block("@f", [LoopEvent("loop#0", body)])


@pytest.mark.parametrize("trips", TRIPS)
@pytest.mark.parametrize("then", [True, False, None])
def test_an_if_in_a_loop_costs_exactly_what_simulating_every_iteration_costs(trips, then):
    path = {"loop#0": trips} if then is None else {"loop#0": trips, "if#0": then}
    assert_closed_form_exact(with_if_in_loop(), UNIT, path)


def test_a_loop_still_changing_after_its_samples_is_estimated_from_the_last_one():
    """A transfer queue that grows every iteration never repeats its state: the loop is
    timed from ``SAMPLED_ITERATIONS`` iterations, not run to its end."""
    program = one_loop([start("t", 100), Compute("c", macs=1)])
    trips = 10**12
    closed = simulate(program, UNIT, {"loop#0": trips})
    assert closed.cycles == 5 + trips * 1 + 3
    sampled = sum(1 for lane in closed.lanes if lane.label == "c")
    assert sampled == SAMPLED_ITERATIONS


# --- programs from nn IR -------------------------------------------------------------------


def events_of(text: str, pipeline: str) -> Block:
    module, _ = parse_module(text)
    apply_pipeline(module, pipeline)
    return function_events(functions(module)[0])


@pytest.mark.parametrize("trips", TRIPS)
@pytest.mark.parametrize("prefetch", [True, False])
@pytest.mark.parametrize("loop_weights", ["stream", "hoist"])
def test_a_loop_with_dma_inserted_costs_exactly_what_simulating_every_iteration_costs(trips, prefetch, loop_weights):
    events = events_of(FOUR_LAYERS, f"nn-insert-dma{{loop-weights={loop_weights} loop-prefetch={str(prefetch).lower()}}}")
    loop = next(e for e in events.events if isinstance(e, LoopEvent))
    assert bool(loop.reloads) == (prefetch and loop_weights == "stream")  # the first weights cross the back edge
    assert_closed_form_exact(events, Chip(), {"loop#0": trips})


@pytest.mark.parametrize("trips", TRIPS)
@pytest.mark.parametrize("loop_weights", ["stream", "hoist"])
def test_seqkws_if_in_a_loop_and_a_loop_in_an_if_cost_exactly_what_unrolling_costs(trips, loop_weights):
    events = events_of((EXAMPLES / "seqkws.mlir").read_text(), f"nn-insert-dma{{loop-weights={loop_weights}}}")
    for loud in (True, False):
        path = {"loop#0": trips, "if#0": loud, "if#1": True, "loop#1": 7 - trips}
        assert_closed_form_exact(events, Chip(), path)


def test_repeated_regions_count_in_the_bound_and_the_report():
    timeline = simulate(one_loop(LOAD_AND_USE), UNIT, {"loop#0": 1000})
    body = [r for r in timeline.regions if r.label == "body"]
    assert sum(r.repeats for r in body) == 1000 and len(body) <= 2
    once = simulate(one_loop(LOAD_AND_USE), UNIT, {"loop#0": 1}).regions
    assert [r for r in once if r.label == "body"] == [RegionTime("body", 5, 5 + 50 + 9, 16, 50)]
    assert timeline.bound == 5 + 1000 * 50 + 3


# --- commands on a loop of 10**9 trips ------------------------------------------------------

BILLION = """
builtin.module {
  nn.global @weights size(4096) seed(3) scale(3.000000e-01 : f64)
  func.func @main(%x: tensor<1x8xf32>) -> (tensor<1x8xf32>) {
    %weights = nn.get_global @weights : tensor<4096xi8>
    %w = nn.view %weights[0] bytes(256) : tensor<4096xi8> to tensor<8x8xf32>
    %n = nn.constant dense<1000000000> : tensor<i64>
    %t = nn.constant dense<true> : tensor<i1>
    %h = nn.loop %n, %t (%x) : (tensor<i64>, tensor<i1>, tensor<1x8xf32>) -> (tensor<1x8xf32>) {
    ^bb0(%i: tensor<i64>, %c: tensor<i1>, %a: tensor<1x8xf32>):
      %m = nn.matmul %a, %w : (tensor<1x8xf32>, tensor<8x8xf32>) -> tensor<1x8xf32>
      nn.yield %t, %m : tensor<i1>, tensor<1x8xf32>
    }
    func.return %h : tensor<1x8xf32>
  }
}
"""
ADDRESS_SPACE = 2 * 1024**3


def run_limited(*args: str) -> subprocess.CompletedProcess:
    """The command line under a 2 GB address space; a generous timeout only guards the test run."""
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))

    return subprocess.run([*CFMEM, *args], capture_output=True, text=True, preexec_fn=limit, timeout=600)


@pytest.mark.parametrize(
    "args",
    [
        ("report", "{model}", "--timing", "--json"),
        ("compile", "{model}", "--budget", "64", "-o", "{out}"),
        ("compile", "{dynamic}", "--budget", "64", "--loop-trips", str(2**63 - 1), "-o", "{out}"),
    ],
    ids=["report-timing", "compile-budget", "compile-loop-trips-int64-max"],
)
def test_commands_time_a_billion_iterations_without_unrolling_them(tmp_path, args):
    model = tmp_path / "billion.mlir"
    model.write_text(BILLION)
    dynamic = tmp_path / "dynamic.mlir"
    dynamic.write_text(BILLION.replace("func.func @main(%x", "func.func @main(%n: tensor<i64>, %x").replace(
        "    %n = nn.constant dense<1000000000> : tensor<i64>\n", ""))
    done = run_limited(*(a.format(model=model, dynamic=dynamic, out=tmp_path / "flat.mlir") for a in args))
    assert done.returncode == 0, done.stderr
    if args[0] == "report":
        for variant in json.loads(done.stdout)["timing"]["main"]["variants"]:
            assert variant["cycles"] > 10**9  # a cycle or more an iteration
            assert sum(r["repeats"] for r in variant["regions"] if r["region"].endswith("loop#0.body")) == 10**9
    else:
        ms = float(done.stderr.split(" ms modeled")[0].rsplit(" ", 1)[1])
        assert ms > 10**9 / Chip().clock_mhz / 1000  # at least a cycle an iteration


def test_running_a_billion_iterations_stops_at_the_interpreters_limit_in_one_line(tmp_path):
    """cfmem run executes iterations one by one: past MAX_ITERATIONS it stops, naming the loop,
    instead of running for hours."""
    model = tmp_path / "billion.mlir"
    model.write_text(BILLION)
    done = run_limited("run", str(model), "--seed", "0")
    assert done.returncode == 1, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert f"loop#0 goes past {MAX_ITERATIONS:,} loop iterations in one run" in done.stderr


def test_the_flat_interpreter_stops_its_lowered_loop_at_the_limit(monkeypatch):
    """The lowered loop (an scf.for or scf.while) counts against the same limit, here 1,000."""
    module, _ = parse_module(BILLION)
    apply_pipeline(module, "nn-insert-dma,nn-plan-memory,nn-lower-to-memref")
    monkeypatch.setattr(FlatInterpreter, "max_iterations", 1000)
    x = np.zeros((1, 8), np.float32)
    with pytest.raises(InterpError, match="loop#0 goes past 1,000 loop iterations in one run"):
        FlatInterpreter(module).run(functions(module)[0], {"x": x})


def test_the_iteration_limit_counts_every_loop_of_a_run():
    limit = IterationLimit(3)
    for _ in range(3):
        limit.step("loop#0", None)
    with pytest.raises(InterpError, match="loop#1 goes past 3 loop iterations"):
        limit.step("loop#1", None)
