"""The timing model on programs small enough to work out by hand.

The chip below makes every rate 1 byte or MAC per cycle and a transfer's
latency 10 cycles, so each expected number is a sum the reader can redo.
"""

from __future__ import annotations

import json
from dataclasses import fields

import pytest

from cfmem.dma.events import Block, Compute, IfEvent, Start, Wait
from cfmem.dma.timing import Chip, Lane, RegionTime, Timeline, simulate

UNIT = Chip(name="unit", macs_per_cycle=1, move_bytes_per_cycle=1, dma_bytes_per_cycle=1.0,
            dma_latency_cycles=10, offchip_bytes_per_cycle=1.0, clock_mhz=1.0)  # fmt: skip


def start(token: str, nbytes: int) -> Start:
    return Start(token, "buf", ((0, nbytes),), nbytes)


# --- the chip ----------------------------------------------------------------------------


def test_a_transfer_costs_its_latency_plus_its_bytes_over_the_rate():
    chip = Chip(dma_bytes_per_cycle=4.0, dma_latency_cycles=200)
    assert chip.transfer_cycles(1000) == 200 + 250
    assert chip.transfer_cycles(0) == 200


@pytest.mark.parametrize(
    ("op", "cycles"),
    [
        (Compute("macs", macs=640, bytes_moved=64), 10.0),  # 640 / 64 MACs per cycle
        (Compute("moves", macs=64, bytes_moved=640), 20.0),  # 640 / 32 bytes per cycle
        (Compute("offchip", macs=640, offchip_bytes=100), 10.0 + 200.0),  # + 100 / 0.5 off-chip
    ],
)
def test_an_op_takes_the_slower_of_its_macs_and_its_moves_plus_its_offchip_reads(op, cycles):
    assert Chip(macs_per_cycle=64, move_bytes_per_cycle=32, offchip_bytes_per_cycle=0.5).compute_cycles(op) == cycles


def test_a_chip_file_sets_the_keys_it_names_and_keeps_the_defaults_of_the_others(tmp_path):
    path = tmp_path / "chip.json"
    path.write_text(json.dumps({"name": "tiny", "onchip_bytes": 131072, "dma_bytes_per_cycle": 0.5}))
    chip = Chip.load(path)
    assert chip == Chip(name="tiny", onchip_bytes=131072, dma_bytes_per_cycle=0.5)


def test_a_chip_round_trips_through_its_json(tmp_path):
    path = tmp_path / "chip.json"
    path.write_text(UNIT.to_json())
    assert Chip.load(str(path)) == UNIT
    assert json.loads(UNIT.to_json())["dma_latency_cycles"] == 10


def test_unknown_chip_keys_are_named_with_the_known_ones(tmp_path):
    path = tmp_path / "chip.json"
    path.write_text(json.dumps({"sram": 1, "clock": 2, "name": "x"}))
    with pytest.raises(ValueError) as err:
        Chip.load(path)
    known = ", ".join(sorted(f.name for f in fields(Chip)))
    assert str(err.value) == f"unknown chip keys clock, sram (known: {known})"


COUNTS = [f.name for f in fields(Chip) if f.type == "int" and f.name != "slice_overhead_cycles"]
RATES = [f.name for f in fields(Chip) if f.type == "float"]


def refusal(tmp_path, text: str) -> str:
    path = tmp_path / "chip.json"
    path.write_text(text)
    with pytest.raises(ValueError) as err:
        Chip.load(path)
    return str(err.value)


@pytest.mark.parametrize("key", COUNTS)
@pytest.mark.parametrize("value", ["0", "-1", "1.5", "1e300", "2.0", "true", '"8"', "9223372036854775808"])
def test_every_count_is_an_integer_from_one_to_int64(tmp_path, key, value):
    shown = repr(json.loads(value))
    assert refusal(tmp_path, f'{{"{key}": {value}}}') == f"{key} must be an integer from 1 to {2**63 - 1}, not {shown}"


@pytest.mark.parametrize("key", RATES)
@pytest.mark.parametrize("value", ["0", "-1", "1e-320", "1e400", "1e10", "false", "null"])
def test_every_rate_is_a_number_whose_times_stay_finite(tmp_path, key, value):
    shown = repr(json.loads(value))
    assert refusal(tmp_path, f'{{"{key}": {value}}}') == f"{key} must be a number from 1e-09 to 1e+09, not {shown}"


def test_a_chip_is_a_json_object_with_a_string_name(tmp_path):
    assert refusal(tmp_path, "[1]") == "a chip description is a JSON object of chip keys"
    assert refusal(tmp_path, '{"name": 3}') == "name must be a string, not 3"


def test_the_largest_counts_and_extreme_rates_are_accepted(tmp_path):
    path = tmp_path / "chip.json"
    path.write_text(json.dumps({key: 2**63 - 1 for key in COUNTS} | {key: 1e-9 for key in RATES}))
    assert Chip.load(path).onchip_bytes == 2**63 - 1
    path.write_text(json.dumps({key: 1e9 for key in RATES}))
    assert Chip.load(path).clock_mhz == 1e9


def test_a_slice_may_cost_nothing_extra_but_not_less(tmp_path):
    path = tmp_path / "chip.json"
    path.write_text(json.dumps({"slice_overhead_cycles": 0}))
    assert Chip.load(path).slice_overhead_cycles == 0
    assert refusal(tmp_path, '{"slice_overhead_cycles": -1}') == (
        f"slice_overhead_cycles must be an integer from 0 to {2**63 - 1}, not -1"
    )


def test_the_smallest_positive_values_are_accepted(tmp_path):
    path = tmp_path / "chip.json"
    path.write_text(json.dumps({f.name: 1 for f in fields(Chip) if f.name != "name"}))
    assert Chip.load(path).dma_latency_cycles == 1


# --- one region --------------------------------------------------------------------------


def straight_line() -> Block:
    """Two transfers queue on the engine while compute runs; waits stall compute."""
    return Block("@f", [
        start("t1", 100),  # engine [0, 110)
        start("t2", 50),  # queued behind t1: [110, 170)
        Compute("a", macs=30),  # [0, 30)
        Wait("t1"),  # compute stalls until 110
        Compute("b", macs=20, reads=("t1",)),  # [110, 130)
        Wait("t2"),  # stalls until 170
        Compute("c", bytes_moved=5, reads=("t2",)),  # [170, 175)
    ])  # fmt: skip


def test_transfers_queue_on_one_engine_and_waits_stall_compute():
    timeline = simulate(straight_line(), UNIT)
    assert timeline.cycles == 175
    assert timeline.lanes == [
        Lane("dma", 0, 110, "t1"),
        Lane("dma", 110, 170, "t2"),
        Lane("compute", 0, 30, "a"),
        Lane("compute", 110, 130, "b"),
        Lane("compute", 170, 175, "c"),
    ]
    assert timeline.regions == [RegionTime("@f", 0, 175, 55, 170)]
    assert timeline.bound == 170  # the transfers, the larger of 55 and 170


def test_a_wait_on_a_finished_transfer_does_not_stall():
    timeline = simulate(Block("@f", [start("t", 10), Compute("a", macs=50), Wait("t"), Compute("b", macs=1)]), UNIT)
    assert timeline.cycles == 51
    assert timeline.lanes[-1] == Lane("compute", 50, 51, "b")


def test_a_transfer_issued_after_compute_starts_when_it_is_issued():
    timeline = simulate(Block("@f", [Compute("a", macs=40), start("t", 10), Wait("t")]), UNIT)
    assert timeline.lanes == [Lane("compute", 0, 40, "a"), Lane("dma", 40, 60, "t")]
    assert timeline.cycles == 60


def test_milliseconds_divide_cycles_by_the_clock():
    assert Timeline(2_000_000.0).milliseconds(Chip(clock_mhz=200.0)) == 10.0


# --- ifs ---------------------------------------------------------------------------------


def with_if(then_macs: int, else_macs: int) -> Block:
    """A compute region, an if whose branches each load and use a weight, and a tail."""
    return Block("@f", [
        Compute("head", macs=10),
        IfEvent("if#0", [
            Block("if#0.then", [start("tw", 20), Wait("tw"), Compute("t", macs=then_macs, reads=("tw",))]),
            Block("if#0.else", [start("ew", 40), Wait("ew"), Compute("e", macs=else_macs, reads=("ew",))]),
        ]),
        Compute("tail", macs=5),
    ])  # fmt: skip


def test_an_if_cuts_its_block_into_regions_and_runs_the_branch_it_is_given():
    timeline = simulate(with_if(7, 3), UNIT, {"if#0": False})
    # head [0, 10); else: transfer [10, 60), e [60, 63); tail [63, 68)
    assert timeline.cycles == 68
    assert timeline.regions == [
        RegionTime("@f", 0, 10, 10, 0),
        RegionTime("if#0.else", 10, 63, 3, 50),
        RegionTime("@f[1]", 63, 68, 5, 0),
    ]
    assert timeline.bound == 10 + 50 + 5
    taken = simulate(with_if(7, 3), UNIT, {"if#0": True})
    assert [r.label for r in taken.regions] == ["@f", "if#0.then", "@f[1]"]
    assert taken.cycles == 10 + 30 + 7 + 5


def test_an_if_not_named_takes_its_slower_branch_and_the_then_branch_on_a_tie():
    assert simulate(with_if(7, 3), UNIT).regions[1].label == "if#0.then"
    assert simulate(with_if(3, 7), UNIT).regions[1].label == "if#0.else"
    assert simulate(with_if(5, 5), UNIT).regions[1].label == "if#0.then"


def test_the_slower_branch_counts_the_slower_path_of_an_if_inside_it():
    """then: 2 MACs then an if of 1 or 9; else: 6. The then branch's slower path is 11 > 6."""
    inner = IfEvent("if#1", [Block("if#1.then", [Compute("x", macs=1)]), Block("if#1.else", [Compute("y", macs=9)])])
    program = Block("@f", [IfEvent("if#0", [
        Block("if#0.then", [Compute("p", macs=2), inner]),
        Block("if#0.else", [Compute("q", macs=6)]),
    ])])  # fmt: skip
    timeline = simulate(program, UNIT)
    assert timeline.cycles == 11
    assert [r.label for r in timeline.regions] == ["if#0.then", "if#1.else"]


def test_regions_with_no_work_are_left_out():
    program = Block("@f", [IfEvent("if#0", [Block("if#0.then", []), Block("if#0.else", [Compute("e", macs=1)])])])
    timeline = simulate(program, UNIT, {"if#0": True})
    assert timeline.regions == [] and timeline.cycles == 0
    timeline = simulate(program, UNIT, {"if#0": False})
    assert timeline.regions == [RegionTime("if#0.else", 0, 1, 1, 0)]


def test_a_region_holding_only_a_transfer_is_kept():
    timeline = simulate(Block("@f", [start("t", 5), Wait("t")]), UNIT)
    assert timeline.regions == [RegionTime("@f", 0, 15, 0, 15)]


def test_a_branchs_work_sums_its_ops_and_the_slower_path_of_its_ifs():
    """then: 6 + 4 = 10 cycles against else: 7; then: 1 and an if of 1 or 9 (10) against else: 9.5."""
    sums = Block("@f", [IfEvent("if#0", [
        Block("if#0.then", [Compute("p", macs=6), Compute("q", macs=4)]),
        Block("if#0.else", [Compute("e", macs=7)]),
    ])])  # fmt: skip
    assert simulate(sums, UNIT).regions[0].label == "if#0.then"
    inner = IfEvent("if#1", [Block("if#1.then", [Compute("x", macs=2)]), Block("if#1.else", [Compute("y", macs=18)])])
    nested = Block("@f", [IfEvent("if#0", [
        Block("if#0.then", [Compute("p", macs=2), inner]),
        Block("if#0.else", [Compute("e", macs=19)]),
    ])])  # fmt: skip
    assert [r.label for r in simulate(nested, Chip(macs_per_cycle=2)).regions][:1] == ["if#0.then"]


def test_the_parts_of_a_block_between_ifs_are_numbered():
    program = Block("@f", [
        Compute("a", macs=1),
        IfEvent("if#0", [Block("if#0.then", [Compute("t", macs=1)]), Block("if#0.else")]),
        Compute("b", macs=1),
        IfEvent("if#1", [Block("if#1.then", [Compute("u", macs=1)]), Block("if#1.else")]),
        Compute("c", macs=1),
    ])  # fmt: skip
    timeline = simulate(program, UNIT, {"if#0": True, "if#1": True})
    assert [(r.label, r.start, r.end) for r in timeline.regions] == [
        ("@f", 0, 1), ("if#0.then", 1, 2), ("@f[1]", 2, 3), ("if#1.then", 3, 4), ("@f[2]", 4, 5),
    ]  # fmt: skip


def test_a_chip_is_written_as_indented_json_one_key_a_line():
    lines = UNIT.to_json().splitlines()
    assert lines[0] == "{" and lines[1] == '  "name": "unit",' and lines[-1] == "}"
    assert len(lines) == len(fields(Chip)) + 2


def test_the_slower_path_counts_only_compute_however_deep_the_ifs():
    # The then branch computes 6 cycles; the else branch 5, inside two nested ifs.
    # Nesting adds no work of its own, so the then branch is the slower path.
    def nest(depth: int, label: str) -> Block:
        if depth == 0:
            return Block(label, [Compute(f"{label}.op", macs=5)])
        return Block(label, [IfEvent(f"{label}.if", [nest(depth - 1, f"{label}.t"), nest(depth - 1, f"{label}.e")])])

    program = Block("main", [IfEvent("if0", [Block("then", [Compute("then.op", macs=6)]), nest(2, "else")])])
    assert simulate(program, UNIT).cycles == 6
    assert simulate(program, UNIT, {"if0": False}).cycles == 5
