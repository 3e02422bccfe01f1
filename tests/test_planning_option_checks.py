"""The option rules shared by the passes and the CLI, with their exact messages."""

from __future__ import annotations

import math

import pytest

from cfmem.planning.option_checks import (
    OptionError,
    check_align,
    check_at_least,
    check_beam_width,
    check_budget,
    check_choice,
    check_depth,
    check_time_limit,
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


@pytest.mark.parametrize("value", [True, 1.0, "3", None])
def test_a_count_must_be_an_integer_and_not_a_bool(value):
    err = refusal(check_at_least, "width", value, 1)
    assert str(err) == f"width must be an integer, not {value!r}"
    assert (err.option, err.rule) == ("width", f"must be an integer, not {value!r}")


def test_a_count_below_its_minimum_names_the_minimum_and_why():
    assert str(refusal(check_at_least, "depth", 1, 2, "two make a pair")) == "depth must be at least 2 (two make a pair), not 1"
    err = refusal(check_at_least, "n", 4, 5)
    assert str(err) == "n must be at least 5, not 4"
    assert err.option == "n"
    check_at_least("n", 5, 5)


@pytest.mark.parametrize("check", [check_align, check_beam_width])
def test_alignment_and_beam_width_start_at_one(check):
    check("opt", 1)
    assert str(refusal(check, "opt", 0)) == "opt must be at least 1, not 0"


def test_a_rotation_needs_two_buffers():
    check_depth("depth", 2)
    assert str(refusal(check_depth, "depth", 1)) == "depth must be at least 2 (two buffers make ping-pong), not 1"


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
    assert str(err) == "--budget must not be negative, not -1"
    assert err.option == "--budget"


@pytest.mark.parametrize("value", [False, 1.5, "1k"])
def test_a_budget_must_be_whole_bytes(value):
    err = refusal(check_budget, "budget", value)
    assert str(err) == f"budget must be a number of bytes, not {value!r}"
    assert err.option == "budget"


def test_an_option_error_may_carry_its_own_message():
    err = OptionError("x", "is bad", "custom text")
    assert (str(err), err.option, err.rule) == ("custom text", "x", "is bad")
    assert str(OptionError("x", "is bad")) == "x is bad"
