#!/usr/bin/env python3
"""Record Python's float ** for runtime's TestFloatPow: testdata/pow/cases.json holds
[x, y, repr(x ** y)] for a fixed pseudo-random sample of arguments (seeded: rerunning it
writes the same bytes), with the repr of a float (or of a complex, for a negative number
to a fractional power) as Python writes it, "OverflowError" where Python raises it.

Usage: python3 jinja2/testdata/pow/record.py
"""
import json
import os
import random

rng = random.Random(20261202)
cases = []


def add(x, y):
    try:
        r = repr(x ** y)
    except OverflowError:
        r = "OverflowError"
    except ZeroDivisionError:
        r = "ZeroDivisionError"
    cases.append([repr(x), repr(y), r])


for _ in range(1500):
    add(rng.uniform(0, 100), rng.uniform(-10, 10))
for _ in range(300):
    add(rng.uniform(0, 2), rng.uniform(-300, 300))
for _ in range(300):
    add(rng.uniform(-50, 50), float(rng.randint(-70, 70)))
for _ in range(200):
    add(rng.uniform(1, 1e6), rng.uniform(-60, 60))
for _ in range(100):
    add(rng.choice([2.0, 10.0, 0.5, 1.1, 3.0, 1e10, 1e-10]), float(rng.randint(-400, 400)))
for _ in range(300):
    add(rng.uniform(-100, 0), rng.uniform(-10, 10))
for _ in range(100):
    add(-rng.uniform(0, 3), rng.uniform(-1e6, 1e6))
for x, y in [(-8.0, 0.5), (-1.0, 0.5), (-27.0, 1 / 3), (-2.0, 0.25), (-1.0, 1e15 + 0.5),
             (-1e300, 1.5), (-0.5, 0.5), (-4.0, -0.5)]:
    add(x, y)
for x, y in [(2.0, 0.5), (4.0, 0.5), (9.0, 0.5), (8.0, 1 / 3), (10.0, -2.0), (1.5, 3000.0),
             (1e308, 2.0), (1e-308, 2.0), (2.0, -1074.0), (2.0, -1075.0), (3.0, -700.0),
             (0.5, 1074.5), (-2.0, 3.0), (-2.0, 1025.0), (-0.5, -3.0), (7.0, 0.0), (1.0, 1e300)]:
    add(x, y)

path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases.json")
with open(path, "w") as f:
    f.write("[\n" + ",\n".join(json.dumps(c) for c in cases) + "\n]\n")
print(f"record.py: {len(cases)} cases -> {path}")
