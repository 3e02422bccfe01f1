"""The option rules shared by the passes and the CLI, with their exact messages."""

from __future__ import annotations

import argparse
import math

import pytest

from cfmem.planning.option_checks import (
    MAX_DEPTH,
    OptionError,
    check_align,
    check_beam_width,
    check_budget,
    check_choice,
    check_depth,
    check_int,
    check_loop_trips,
    check_rate,
    check_time_limit,
    parsed_int,
)


def refusal(check, *args) -> OptionError:
    with pytest.raises(OptionError) as err:
        check(*args)
    return err.value


def test_an_unknown_choice_names_the_option_without_dashes_and_the_choices():
    err = refusal(check_choice, "--strategy", "fast", ("auto", "search"))
    assert str(err) == "unknown strategy 'fast' (choose from auto, search)"
    assert (err.option, err.rule) == ("--strategy", "unknown strategy 'fast' (choose from auto, search)")
    check_choice("--strategy", "search", ("auto", "search"))


def test_a_dash_inside_the_name_is_kept():
    assert str(refusal(check_choice, "--dma-mode", "x", ("sync",))) == "unknown dma-mode 'x' (choose from sync)"


I64 = "9223372036854775807"


@pytest.mark.parametrize("value", [True, 1.0, "3", None])
def test_a_count_must_be_an_integer_and_not_a_bool(value):
    err = refusal(check_int, "width", value, 1)
    assert str(err) == f"width must be an integer from 1 to {I64}, not {value!r}"
    assert (err.option, err.rule) == ("width", f"must be an integer from 1 to {I64}, not {value!r}")


def test_a_count_outside_its_range_names_the_range_and_why():
    assert str(refusal(check_int, "depth", 1, 2, 9, "two make a pair")) == "depth must be an integer from 2 to 9 (two make a pair), not 1"
    assert str(refusal(check_int, "depth", 10, 2, 9, "two make a pair")) == "depth must be an integer from 2 to 9 (two make a pair), not 10"
    err = refusal(check_int, "n", 2**63, 5)
    assert str(err) == f"n must be an integer from 5 to {I64}, not {2**63}"
    assert err.option == "n"
    check_int("n", 5, 5)
    check_int("n", 2**63 - 1, 5)


@pytest.mark.parametrize("check", [check_align, check_beam_width])
def test_alignment_and_beam_width_start_at_one(check):
    check("opt", 1)
    assert str(refusal(check, "opt", 0)) == f"opt must be an integer from 1 to {I64}, not 0"


def test_a_rotation_needs_two_buffers_and_at_most_max_depth():
    check_depth("depth", 2)
    check_depth("depth", MAX_DEPTH)
    for value in (1, MAX_DEPTH + 1):
        assert str(refusal(check_depth, "depth", value)) == (
            f"depth must be an integer from 2 to {MAX_DEPTH} (two buffers make ping-pong), not {value}"
        )


@pytest.mark.parametrize("check", [check_align, check_beam_width, check_budget, check_loop_trips])
def test_every_integer_option_stops_at_int64(check):
    check("opt", 2**63 - 1)
    assert str(refusal(check, "opt", 2**63)).startswith(f"opt must be an integer from ")


@pytest.mark.parametrize(("text", "value"), [("7", 7), (" 7 ", 7), (I64, 2**63 - 1)])
def test_an_integer_option_is_range_checked_where_argparse_parses_it(text, value):
    assert parsed_int(check_align)(text) == value


@pytest.mark.parametrize("text", ["0", "x", "1.5", "1e3", "99999999999999999999", ""])
def test_an_integer_option_refused_by_argparse_says_the_rule(text):
    with pytest.raises(argparse.ArgumentTypeError) as err:
        parsed_int(check_align)(text)
    shown = repr(int(text)) if text.isdigit() else repr(text)
    assert str(err.value) == f"must be an integer from 1 to {I64}, not {shown}"


@pytest.mark.parametrize("value", [1e-9, 1, 2.5, 1e9])
def test_a_chip_rate_is_a_number_in_range(value):
    check_rate("clock_mhz", value)


@pytest.mark.parametrize("value", [0, -1.0, 1e-320, 1e10, math.inf, math.nan, True, "2"])
def test_a_chip_rate_outside_its_range_is_refused(value):
    assert str(refusal(check_rate, "clock_mhz", value)) == f"clock_mhz must be a number from 1e-09 to 1e+09, not {value!r}"


@pytest.mark.parametrize("value", [0.001, 1, 10.5])
def test_a_time_limit_is_any_positive_finite_number(value):
    check_time_limit("time-limit", value)


@pytest.mark.parametrize("value", [0, 0.0, -1.5, math.inf, math.nan])
def test_a_time_limit_must_be_positive_and_finite(value):
    err = refusal(check_time_limit, "--time-limit", value)
    assert str(err) == f"--time-limit must be a positive number of seconds, not {value:g}"
    assert err.option == "--time-limit"


@pytest.mark.parametrize("value", [True, "10", None])
def test_a_time_limit_must_be_a_number(value):
    err = refusal(check_time_limit, "time-limit", value)
    assert str(err) == f"time-limit must be a number of seconds, not {value!r}"
    assert err.option == "time-limit"


@pytest.mark.parametrize("value", [None, 0, 1, 1 << 40])
def test_a_budget_is_none_or_any_number_of_bytes_from_zero(value):
    check_budget("budget", value)


def test_a_negative_budget_is_refused():
    err = refusal(check_budget, "--budget", -1)
    assert str(err) == f"--budget must be an integer from 0 to {I64}, not -1"
    assert err.option == "--budget"


@pytest.mark.parametrize("value", [False, 1.5, "1k"])
def test_a_budget_must_be_whole_bytes(value):
    err = refusal(check_budget, "budget", value)
    assert str(err) == f"budget must be an integer from 0 to {I64}, not {value!r}"
    assert err.option == "budget"


def test_an_option_error_may_carry_its_own_message():
    err = OptionError("x", "is bad", "custom text")
    assert (str(err), err.option, err.rule) == ("custom text", "x", "is bad")
    assert str(OptionError("x", "is bad")) == "x is bad"
