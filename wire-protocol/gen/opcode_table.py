"""The committed, append-only opcode tables (gl-opcodes.txt, vk-opcodes.txt):
each line "NUMBER NAME". A command keeps its number forever."""


def assign(commands, path, first, update):
    """Gives every command of `commands` (name -> command) its opcode from
    the table at `path`; new commands get the next numbers (from `first` in
    an empty table) when `update`, else the build stops and names them."""
    table = {}
    try:
        with open(path) as f:
            for line in f:
                line = line.split("#", 1)[0].strip()
                if line:
                    number, name = line.split()
                    table[name] = int(number)
    except FileNotFoundError:
        pass
    missing = sorted(n for n in commands if n not in table)
    if missing and not update:
        raise SystemExit(f"commands without an opcode (run the generator with --update-opcodes "
                         f"and commit {path.rsplit('/', 1)[-1]}): " + ", ".join(missing[:20]))
    next_op = max(table.values(), default=first - 1) + 1
    if missing:
        with open(path, "a") as f:
            for name in missing:
                table[name] = next_op
                f.write(f"{next_op} {name}\n")
                next_op += 1
    for name, c in commands.items():
        c.opcode = table[name]
