#!/usr/bin/env python3
"""Reads vk.xml into Conduit's Vulkan command model: checks that every
command is generated or annotated, keeps the stable opcode table, and
reports the coverage."""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from vk_model import VkModel  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--xml", required=True)
    ap.add_argument("--annotations", required=True)
    ap.add_argument("--opcodes", required=True)
    ap.add_argument("--update-opcodes", action="store_true",
                    help="append opcodes for new commands to the committed table")
    ap.add_argument("--report", action="store_true", help="print coverage and exit")
    ap.add_argument("--out", nargs="*", default=[], help="files to write (by name)")
    args = ap.parse_args()
    model = VkModel(args.xml, args.annotations, args.opcodes)
    model.assign_opcodes(update=args.update_opcodes)
    if args.report:
        print(model.report())
        return
    import emit
    for path in args.out:
        emit.write(model, path)


if __name__ == "__main__":
    main()
