#!/usr/bin/env python3
"""Reads vk.xml into Conduit's Vulkan command model: checks that every
command is generated or annotated, keeps the stable opcode table, reports
the coverage and writes the Vulkan code."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import generator_cli  # noqa: E402
from vk_model import VkModel  # noqa: E402

if __name__ == "__main__":
    generator_cli.main(VkModel, __doc__)
