"""Scalar arguments checked at the package's edge: flags, integers, numbers
and paths, each TypeError or ValueError naming the argument (never
OverflowError, nor a message about an anonymous object)."""

import numbers
import operator
import os

INT_MIN, INT_MAX = -2**31, 2**31 - 1  # a C int


def flag(value, name):
    """value's truth, as NetworkX and Python read flags; TypeError naming the
    argument for an object that has none (a numpy array of several values)."""
    try:
        return bool(value)
    except Exception as e:  # noqa: BLE001 -- whatever __bool__ raises
        raise TypeError(f"{name}: expected True or False, not {type(value).__name__} "
                        f"({e})") from None


def integer(value, name, lo=None, hi=None):
    """value as an int (anything with __index__: numpy integers, bool):
    TypeError for anything else (floats included), ValueError outside [lo,
    hi] however large."""
    try:
        value = operator.index(value)
    except TypeError:
        raise TypeError(f"{name}: expected an integer, not {type(value).__name__}") from None
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise ValueError(f"{name}: {value} is out of range [{lo}, {hi}]")
    return value


def real(value, name):
    """value as a float: a real number (numpy's too, and bool), not a
    string, complex or container (TypeError); an int too large for a
    float is a ValueError."""
    if not isinstance(value, numbers.Real):
        raise TypeError(f"{name}: expected a number, not {type(value).__name__}")
    try:
        return float(value)
    except OverflowError:
        raise ValueError(f"{name}: {value} is too large for a float") from None


def path(value, name="path"):
    """value as a str or bytes path (os.fspath): TypeError for another
    type, ValueError for an empty one."""
    try:
        value = os.fspath(value)
    except TypeError:
        raise TypeError(f"{name}: expected a str, bytes or os.PathLike path, not "
                        f"{type(value).__name__}") from None
    if not value:
        raise ValueError(f"{name}: an empty path")
    return value
