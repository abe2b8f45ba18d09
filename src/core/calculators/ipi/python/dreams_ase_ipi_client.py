#!/usr/bin/env python3
"""Serve any ASE calculator to DREAMS over the i-PI socket protocol.

    python3 dreams_ase_ipi_client.py MODULE:FACTORY [NAME=VALUE ...]

MODULE:FACTORY names a calculator class or function by import path, e.g.
ase.calculators.emt:EMT or mace.calculators:mace_mp; each NAME=VALUE is a keyword
argument of it (VALUE read as JSON when it parses, else as text: model=medium
default_dtype=float64). DREAMS starts this script itself and tells it, in the
environment, the atoms to serve (DREAMS_IPI_STRUCTURE, an extended XYZ file) and
where to connect (DREAMS_IPI_HOST and DREAMS_IPI_PORT, or DREAMS_IPI_UNIX). Before
connecting it prints one line naming the calculator and its package version,
which DREAMS records with every energy:

    DREAMS_IPI_CALCULATOR {"name": "EMT", "package": "ase", "version": "3.22.1"}

Units on the wire are the protocol's (hartree, bohr); ASE's SocketClient converts.
"""
import importlib
import json
import os
import sys


def fail(message):
    print(f"dreams_ase_ipi_client: {message}", file=sys.stderr, flush=True)
    sys.exit(2)


def factory_of(path):
    module_name, _, attribute = path.partition(":")
    if not module_name or not attribute:
        fail(f'"{path}" is not MODULE:FACTORY (e.g. ase.calculators.emt:EMT or mace.calculators:mace_mp).')
    try:
        module = importlib.import_module(module_name)
    except ImportError as e:
        fail(f"cannot import {module_name} ({e}); install it in the Python that runs this script ({sys.executable}).")
    target = module
    for part in attribute.split("."):
        if not hasattr(target, part):
            fail(f"{module_name} has no {attribute}.")
        target = getattr(target, part)
    return target


def keyword_arguments(items):
    out = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.isidentifier():
            fail(f'"{item}" is not NAME=VALUE (a keyword argument of the calculator).')
        try:
            out[name] = json.loads(value)
        except ValueError:
            out[name] = value
    return out


def package_version(module_name):
    top = module_name.split(".")[0]
    try:
        from importlib.metadata import version
        return top, version(top)
    except Exception:
        return top, getattr(sys.modules.get(top), "__version__", "unknown")


def main(argv):
    if len(argv) < 1 or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if argv else 2
    structure = os.environ.get("DREAMS_IPI_STRUCTURE")
    if not structure:
        fail("DREAMS_IPI_STRUCTURE is not set: DREAMS starts this script and names the atoms to serve.")
    from ase.io import read
    from ase.calculators.socketio import SocketClient

    calculator = factory_of(argv[0])(**keyword_arguments(argv[1:]))
    atoms = read(structure)
    atoms.calc = calculator
    package, version = package_version(argv[0].partition(":")[0])
    print("DREAMS_IPI_CALCULATOR " + json.dumps({"name": type(calculator).__name__, "package": package, "version": version}), flush=True)
    unix = os.environ.get("DREAMS_IPI_UNIX")
    if unix:
        client = SocketClient(unixsocket=unix)
    else:
        client = SocketClient(host=os.environ.get("DREAMS_IPI_HOST", "127.0.0.1"), port=int(os.environ["DREAMS_IPI_PORT"]))
    client.run(atoms, use_stress=atoms.pbc.all())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
