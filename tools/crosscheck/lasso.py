#!/usr/bin/python3
"""Cross-check Margin's lasso (internal/algos/linreg.SolveLasso) against scikit-learn.

Margin's lasso minimises

    (1/2n) ||y - X w - b 1||^2 + alpha ||w||_1,   b not penalised,

by cyclic coordinate descent, which is exactly what
sklearn.linear_model.Lasso(alpha=alpha, fit_intercept=True,
selection='cyclic') minimises. For several seeded data sets (correlated
features as in the "lasso" demo, a sparse truth with many irrelevant
features, a wide design with more features than points, features on very
different scales) and alpha from 1e-3 to beyond alpha_max (where w = 0),
it writes the problems to a temporary directory, has the Go side solve
them (the env-gated test TestLassoCrosscheck in internal/algos/linreg, run
with `go test`), and compares w and b with scikit-learn's, run to a
duality-gap tolerance of 1e-15 so that both sit on the minimiser.

It prints the largest differences per case and overall, and exits
non-zero if any difference in w or b is above 1e-8 (relative to
max(1, max|w|)), if the two disagree on which weights are exactly zero, or
if Margin's objective is above scikit-learn's by more than 1e-12.
Run from anywhere: python3 tools/crosscheck/lasso.py (or make crosscheck-lasso).
"""
import json
import os
import subprocess
import sys
import tempfile
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import Lasso

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOL = 1e-8


def datasets(rng):
    """Yields (name, x, y)."""
    for n, rho in [(40, 0.6), (200, 0.9), (12, -0.5)]:
        x1, z = rng.normal(size=n), rng.normal(size=n)
        x = np.column_stack([x1, rho * x1 + np.sqrt(1 - rho * rho) * z])
        y = 1.5 * x[:, 0] + 0.5 * x[:, 1] + 1 + 0.5 * rng.normal(size=n)
        yield f"2 features, rho {rho:g}, n {n}", x, y
    n, d = 100, 20
    x = rng.normal(size=(n, d))
    w = np.zeros(d)
    w[:3] = [2.0, -1.0, 0.5]
    yield "sparse truth 100x20", x, x @ w - 3 + 0.3 * rng.normal(size=n)
    n, d = 15, 30
    x = rng.normal(size=(n, d))
    yield "wide 15x30", x, x[:, 0] - x[:, 1] + 0.1 * rng.normal(size=n)
    x = rng.normal(size=(60, 4)) * np.array([0.01, 1.0, 10.0, 100.0]) + np.array([5.0, -2.0, 0.0, 40.0])
    yield "scales 0.01 to 100, 60x4", x, x @ np.array([30.0, 1.0, 0.1, 0.002]) + rng.normal(size=60)


def objective(x, y, w, b, alpha):
    r = y - x @ w - b
    return r @ r / (2 * len(y)) + alpha * np.abs(w).sum()


def main():
    rng = np.random.default_rng(503)
    cases = []
    with tempfile.TemporaryDirectory() as tmp:
        k = 0
        for name, x, y in datasets(rng):
            xc, yc = x - x.mean(0), y - y.mean()
            amax = np.max(np.abs(xc.T @ yc)) / len(y)
            for alpha in (1e-3, 1e-2, 0.1, 0.5, 1.0, 1.01 * amax):
                req = {"x": x.tolist(), "y": y.tolist(), "alpha": float(alpha), "steps": 2000000}
                with open(os.path.join(tmp, f"request{k:03d}.json"), "w") as f:
                    json.dump(req, f)
                cases.append((k, name, alpha, x, y))
                k += 1
        env = dict(os.environ, MARGIN_LASSO_CROSSCHECK=tmp)
        subprocess.run(["go", "test", "-count=1", "-run", "^TestLassoCrosscheck$", "./internal/algos/linreg/"],
                       cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL)
        ok = True
        worst_w = worst_b = worst_rel = 0.0
        print(f"{'data':28} {'alpha':>9}  {'max|dw|':>9} {'|db|':>9} {'dJ':>10} {'zeros':>6} {'steps':>7}")
        for k, name, alpha, x, y in cases:
            path = os.path.join(tmp, f"answer{k:03d}.json")
            if not os.path.exists(path):
                with open(os.path.join(tmp, f"error{k:03d}.txt")) as f:
                    print(f"{name} alpha {alpha:g}: error {f.read()}")
                ok = False
                continue
            with open(path) as f:
                got = json.load(f)
            w, b = np.array(got["w"]), got["b"]
            with warnings.catch_warnings():
                warnings.simplefilter("error", ConvergenceWarning)
                ref = Lasso(alpha=alpha, fit_intercept=True, selection="cyclic", tol=1e-15, max_iter=10**6).fit(x, y)
            rw, rb = ref.coef_, ref.intercept_
            dw, db = np.max(np.abs(w - rw)), abs(b - rb)
            dj = objective(x, y, w, b, alpha) - objective(x, y, rw, rb, alpha)
            same_zeros = np.array_equal(w == 0, rw == 0)
            rel = max(dw, db) / max(1.0, np.max(np.abs(rw)))
            worst_w, worst_b, worst_rel = max(worst_w, dw), max(worst_b, db), max(worst_rel, rel)
            if rel > TOL or not same_zeros or dj > 1e-12 or got["status"] != "converged":
                ok = False
            print(f"{name:28} {alpha:9.4g}  {dw:9.2e} {db:9.2e} {dj:10.2e} {'same' if same_zeros else 'DIFFER':>6} {got['steps']:7d}")
        print(f"largest differences over {len(cases)} cases: max|dw| {worst_w:.2e}, |db| {worst_b:.2e}, "
              f"relative to max(1, max|w|) {worst_rel:.2e} (tolerance {TOL:g})")
        if not ok:
            sys.exit(1)


if __name__ == "__main__":
    main()
