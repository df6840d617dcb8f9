"""The generators' command line, the same for GL and Vulkan: read the
registry into a model, keep the opcode table, then report or write files."""

import argparse

import emit


def main(model_class, description):
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--xml", required=True)
    ap.add_argument("--annotations", required=True)
    ap.add_argument("--opcodes", required=True)
    ap.add_argument("--update-opcodes", action="store_true",
                    help="append opcodes for new commands to the committed table")
    ap.add_argument("--report", action="store_true", help="print coverage and exit")
    ap.add_argument("--out", nargs="*", default=[], help="files to write (by name)")
    args = ap.parse_args()
    model = model_class(args.xml, args.annotations, args.opcodes)
    model.assign_opcodes(update=args.update_opcodes)
    if args.report:
        print(model.report())
        return
    for path in args.out:
        emit.write(model, path)
