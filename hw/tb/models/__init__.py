"""Software models of the ASIC-study cores (the golden models of their
cocotb benches). Each module exposes one function per registry entry
(hw/cores.py, field `model`): bytes -> digest bytes."""

import importlib


def load(spec):
    """'module:function' (module inside this package) -> the function."""
    mod, _, fn = spec.partition(":")
    return getattr(importlib.import_module(f"models.{mod}"), fn)
