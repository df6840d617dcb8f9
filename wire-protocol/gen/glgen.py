#!/usr/bin/env python3
"""Generates Conduit's GL wire protocol code from the Khronos registry."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import generator_cli  # noqa: E402
from model import Model  # noqa: E402

if __name__ == "__main__":
    generator_cli.main(Model, __doc__)
