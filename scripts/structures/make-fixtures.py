#!/usr/bin/python3
"""
Writes the project's structure fixtures and example CIFs from crystallographic facts:

  test/fixtures/structures/symmetry/cases.json  structures of distinct space groups (triclinic
      to cubic: atoms at generic positions expanded with each group's operations, plus common
      crystals with atoms on special positions, plus noisy copies for the tolerance) with
      spglib's answer for each (space group, Wyckoff letters, standardised cells);
  test/fixtures/structures/*.cif                 CIFs whose symmetry operations are listed in
      full (generated from spglib's Hall-symbol database);
  examples/NaCl.cif, examples/GaAs.cif, examples/Mg-hcp.cif, examples/ZnO-wurtzite.cif.

Needs Debian's python3-spglib and python3-ase:  /usr/bin/python3 scripts/structures/make-fixtures.py
"""
import json
import os
from fractions import Fraction

import numpy as np
import spglib
from ase.geometry import cellpar_to_cell

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
SYMPREC = 1e-5


def default_halls():
    out = {}
    for h in range(1, 531):
        n = spglib.get_spacegroup_type(h)['number']
        out.setdefault(n, h)
    return out


HALL = default_halls()


def lattice_for(number):
    if number <= 2:
        return cellpar_to_cell([4.1, 5.3, 6.7, 78.0, 83.0, 71.0])
    if number <= 15:
        return cellpar_to_cell([4.1, 5.3, 6.7, 90.0, 104.0, 90.0])
    if number <= 74:
        return cellpar_to_cell([4.1, 5.3, 6.7, 90.0, 90.0, 90.0])
    if number <= 142:
        return cellpar_to_cell([4.1, 4.1, 6.7, 90.0, 90.0, 90.0])
    if number <= 194:
        return cellpar_to_cell([4.1, 4.1, 6.7, 90.0, 90.0, 120.0])
    return cellpar_to_cell([5.3, 5.3, 5.3, 90.0, 90.0, 90.0])


def expand(hall, sites):
    ops = spglib.get_symmetry_from_database(hall)
    pos, num = [], []
    for z, f in sites:
        for r, t in zip(ops['rotations'], ops['translations']):
            g = np.mod(r @ np.array(f) + t, 1.0)
            if any(np.all(np.minimum(abs(g - p), 1 - abs(g - p)) < 1e-6) for p in pos):
                continue
            pos.append(g)
            num.append(z)
    return [list(map(float, p)) for p in pos], num


def answer(lattice, positions, numbers, symprec):
    cell = (np.array(lattice), np.array(positions), np.array(numbers))
    d = spglib.get_symmetry_dataset(cell, symprec=symprec)
    std = spglib.standardize_cell(cell, to_primitive=False, no_idealize=False, symprec=symprec)
    prim = spglib.standardize_cell(cell, to_primitive=True, no_idealize=False, symprec=symprec)
    a, b, c = (np.linalg.norm(v) for v in std[0])
    ang = lambda u, v: float(np.degrees(np.arccos(np.dot(u, v) / np.linalg.norm(u) / np.linalg.norm(v))))
    return dict(symprec=symprec, number=int(d['number']), international=d['international'], hallNumber=int(d['hall_number']),
                wyckoffs=list(d['wyckoffs']), siteSymmetry=list(d['site_symmetry_symbols']), equivalentAtoms=[int(x) for x in d['equivalent_atoms']],
                conventional=dict(natoms=len(std[2]), cellpar=[float(a), float(b), float(c), ang(std[0][1], std[0][2]), ang(std[0][0], std[0][2]), ang(std[0][0], std[0][1])],
                                  volume=float(abs(np.linalg.det(std[0])))),
                primitiveNatoms=len(prim[2]))


def case(name, lattice, positions, numbers, symprecs=(SYMPREC,)):
    return dict(name=name, lattice=[list(map(float, v)) for v in lattice], positions=positions, numbers=[int(z) for z in numbers],
                answers=[answer(lattice, positions, numbers, s) for s in symprecs])


GENERIC_NUMBERS = [1, 2, 3, 4, 5, 6, 7, 9, 11, 12, 13, 14, 15, 18, 19, 29, 33, 36, 43, 58, 62, 63, 65, 70, 74, 76, 79, 82, 88, 92, 99, 113,
                   122, 129, 136, 139, 141, 143, 146, 148, 150, 152, 156, 160, 161, 166, 168, 173, 176, 182, 186, 191, 194, 195, 198, 200,
                   205, 206, 212, 216, 221, 225, 227, 230]
SITE_A = [0.1123, 0.2317, 0.3571]
SITE_B = [0.4129, 0.0813, 0.1777]


def generic_cases():
    out = []
    for n in GENERIC_NUMBERS:
        h = HALL[n]
        sites = [(8, SITE_A), (14, SITE_B)] if n < 195 else [(14, SITE_A)]
        pos, num = expand(h, sites)
        lat = lattice_for(n)
        c = case(f'generic-{n}', lat, pos, num)
        if c['answers'][0]['number'] != n:
            raise SystemExit(f'space group {n}: spglib finds {c["answers"][0]["number"]} for the generated structure')
        out.append(c)
    return out


def crystal(name, number, cellpar, sites, symprecs=(SYMPREC,)):
    pos, num = expand(HALL[number], sites)
    return case(name, cellpar_to_cell(cellpar), pos, num, symprecs)


def known_cases():
    return [
        crystal('NaCl rocksalt', 225, [5.64, 5.64, 5.64, 90, 90, 90], [(11, [0, 0, 0]), (17, [0.5, 0.5, 0.5])]),
        crystal('Si diamond', 227, [5.431, 5.431, 5.431, 90, 90, 90], [(14, [0, 0, 0])]),
        crystal('GaAs zincblende', 216, [5.653, 5.653, 5.653, 90, 90, 90], [(31, [0, 0, 0]), (33, [0.25, 0.25, 0.25])]),
        crystal('ZnO wurtzite', 186, [3.25, 3.25, 5.207, 90, 90, 120], [(30, [1 / 3, 2 / 3, 0]), (8, [1 / 3, 2 / 3, 0.382])]),
        crystal('Mg hcp', 194, [3.209, 3.209, 5.211, 90, 90, 120], [(12, [1 / 3, 2 / 3, 0.25])]),
        crystal('TiO2 rutile', 136, [4.594, 4.594, 2.959, 90, 90, 90], [(22, [0, 0, 0]), (8, [0.3053, 0.3053, 0])]),
        crystal('SrTiO3 perovskite', 221, [3.905, 3.905, 3.905, 90, 90, 90], [(38, [0, 0, 0]), (22, [0.5, 0.5, 0.5]), (8, [0.5, 0.5, 0])]),
        crystal('Fe bcc', 229, [2.8665, 2.8665, 2.8665, 90, 90, 90], [(26, [0, 0, 0])]),
        crystal('alpha-quartz', 154, [4.913, 4.913, 5.405, 90, 90, 120], [(14, [0.4697, 0, 0]), (8, [0.4135, 0.2669, 0.1191])]),
        crystal('TiO2 rutile, 2e-3 A noise', 136, [4.594, 4.594, 2.959, 90, 90, 90], [(22, [0, 0, 0]), (8, [0.3053, 0.3053, 0])]),
    ]


def noisy(c):
    rng = np.random.default_rng(7)
    lat = np.array(c['lattice'])
    frac = np.array(c['positions'])
    cart = frac @ lat + rng.uniform(-2e-3, 2e-3, size=frac.shape)
    c['positions'] = [list(map(float, p)) for p in cart @ np.linalg.inv(lat)]
    c['answers'] = [answer(lat, c['positions'], c['numbers'], s) for s in (1e-5, 1e-2)]
    return c


def op_xyz(r, t):
    comps = []
    for i in range(3):
        s = ''
        for k, v in enumerate('xyz'):
            if r[i][k] == 1:
                s += ('+' if s else '') + v
            elif r[i][k] == -1:
                s += '-' + v
        tr = Fraction(float(t[i])).limit_denominator(12)
        if tr != 0:
            s += ('+' if tr > 0 else '-') + str(abs(tr))
        comps.append(s)
    return ', '.join(comps)


def cif(name, number, cellpar, sites, tag='_space_group_symop_operation_xyz', cellpar_text=None, comment=''):
    h = HALL[number]
    t = spglib.get_spacegroup_type(h)
    ops = spglib.get_symmetry_from_database(h)
    lines = [f'# {comment}' if comment else None, f'data_{name}',
             f"_symmetry_space_group_name_H-M '{t['international']}'" if tag == '_symmetry_equiv_pos_as_xyz' else f"_space_group_name_H-M_alt '{t['international']}'",
             f"_space_group_IT_number {number}" if tag != '_symmetry_equiv_pos_as_xyz' else f"_symmetry_Int_Tables_number {number}"]
    labels = ['a', 'b', 'c', 'alpha', 'beta', 'gamma']
    for k, v in enumerate(cellpar_text or [repr(x) for x in cellpar]):
        lines.append(f"_cell_{'length' if k < 3 else 'angle'}_{labels[k]} {v}")
    lines += ['', 'loop_', tag] + [f"'{op_xyz(r, tt)}'" for r, tt in zip(ops['rotations'], ops['translations'])]
    lines += ['', 'loop_', '_atom_site_label', '_atom_site_type_symbol', '_atom_site_fract_x', '_atom_site_fract_y', '_atom_site_fract_z', '_atom_site_occupancy']
    lines += [f'{lab} {sym} {x} {y} {z} 1.0' for lab, sym, (x, y, z) in sites]
    return '\n'.join(l for l in lines if l is not None) + '\n'


def write(rel, text):
    p = os.path.join(ROOT, rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, 'w') as f:
        f.write(text)


def main():
    known = known_cases()
    known[-1] = noisy(known[-1])
    cases = generic_cases() + known
    write('test/fixtures/structures/symmetry/cases.json', json.dumps(dict(
        generatedBy='scripts/structures/make-fixtures.py', spglib=spglib.__version__, cases=cases), indent=1) + '\n')
    facts = 'Written from crystallographic facts by scripts/structures/make-fixtures.py'
    write('examples/NaCl.cif', cif('NaCl', 225, [5.64, 5.64, 5.64, 90, 90, 90], [('Na1', 'Na', (0, 0, 0)), ('Cl1', 'Cl', (0.5, 0.5, 0.5))],
                                   comment=f'Sodium chloride, rocksalt (Fm-3m), a = 5.64 A at room temperature. {facts}.'))
    write('examples/GaAs.cif', cif('GaAs', 216, [5.653, 5.653, 5.653, 90, 90, 90], [('Ga1', 'Ga', (0, 0, 0)), ('As1', 'As', (0.25, 0.25, 0.25))],
                                   comment=f'Gallium arsenide, zincblende (F-43m), a = 5.653 A at room temperature. {facts}.'))
    write('examples/Mg-hcp.cif', cif('Mg', 194, [3.209, 3.209, 5.211, 90, 90, 120], [('Mg1', 'Mg', ('1/3', '2/3', '1/4'))],
                                     comment=f'Magnesium, hcp (P6_3/mmc), a = 3.209 A, c = 5.211 A (c/a = 1.624) at room temperature. {facts}.').replace("1/3 2/3 1/4", "0.333333 0.666667 0.25"))
    write('examples/ZnO-wurtzite.cif', cif('ZnO', 186, [3.25, 3.25, 5.207, 90, 90, 120], [('Zn1', 'Zn', (0.333333, 0.666667, 0)), ('O1', 'O', (0.333333, 0.666667, 0.382))],
                                           comment=f'Zinc oxide, wurtzite (P6_3mc), a = 3.25 A, c = 5.207 A, u = 0.382. {facts}.'))
    write('test/fixtures/structures/si-uncertainties.cif', cif('Si', 227, None, [('Si1', 'Si', (0, 0, 0))], tag='_symmetry_equiv_pos_as_xyz',
                                                               cellpar_text=['5.431(2)', '5.431(2)', '5.431(2)', '90', '90.000(1)', '90'],
                                                               comment='Silicon (Fd-3m, origin choice 1 operations), a with an uncertainty; old-style _symmetry_equiv_pos_as_xyz'))
    print(f'{len(cases)} symmetry cases, {len(set(c["answers"][0]["number"] for c in cases))} distinct space groups')


main()
