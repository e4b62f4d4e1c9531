#!/usr/bin/python3
"""Cross-check Margin's "linear-regression" fit API against scikit-learn.

For a few random data sets (tall, wide, a duplicated column, polynomial
features) and both fit_intercept settings it writes fit requests to a
temporary directory, has the Go side answer them (the env-gated test
TestLinearRegressionCrosscheck in internal/fit, run with `go test`), and
compares w, b and the scores with

    lambda = 0:  sklearn.linear_model.LinearRegression(fit_intercept=...)
    lambda > 0:  sklearn.linear_model.Ridge(alpha=n*lambda, fit_intercept=...)

(Ridge minimises ||Xw + b - y||^2 + alpha ||w||^2, which is n times
Margin's (1/n) sum (w.x_i + b - y_i)^2 + lambda ||w||^2 when alpha = n*lambda.)
For lambda = 0 it also compares with numpy.linalg.lstsq on the centred
problem (b = mean(y) - mean(x).w), the minimum-norm least-squares answer
Margin documents. When the centred design is rank deficient (e.g. n = d
with an intercept) the minimisers form a line and scikit-learn 1.2's
LinearRegression can return one that is not the shortest: the script
then checks that both fit equally well and that Margin's w is the
shorter, and reports the gap instead of failing on it.

It prints the largest absolute differences and exits non-zero if any is
above the tolerance. Run from anywhere: python3 tools/crosscheck/linreg.py
"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
from sklearn.linear_model import LinearRegression, Ridge

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def datasets(rng):
    """Yields (name, x, y, predict)."""
    for n, d in [(50, 3), (200, 10), (30, 30), (12, 40), (500, 1)]:
        x = rng.normal(size=(n, d)) * rng.uniform(0.5, 3, size=d) + rng.normal(size=d)
        y = x @ rng.normal(size=d) + 1.5 + 0.3 * rng.normal(size=n)
        yield f"random {n}x{d}", x, y, rng.normal(size=(5, d))
    x = rng.normal(size=(40, 3))
    x = np.hstack([x, x[:, :1]])  # a duplicated column: rank deficient
    y = x[:, 0] - 2 * x[:, 1] + 0.1 * rng.normal(size=40)
    yield "duplicated column 40x4", x, y, rng.normal(size=(5, 4))
    t = np.linspace(-1, 1, 25)
    x = np.vstack([t ** k for k in range(1, 9)]).T  # degree-8 monomials
    y = np.sin(3 * t) + 0.05 * rng.normal(size=25)
    yield "polynomial degree 8, 25 points", x, y, np.vstack([s ** np.arange(1, 9) for s in (-0.9, 0.1, 0.7)])


def reference(x, y, lam, intercept):
    """scikit-learn's (w, b)."""
    if lam == 0:
        m = LinearRegression(fit_intercept=intercept).fit(x, y)
    else:
        m = Ridge(alpha=len(y) * lam, fit_intercept=intercept).fit(x, y)
    return m.coef_, (m.intercept_ if intercept else 0.0)


def min_norm(x, y, intercept):
    """numpy's minimum-norm least squares on the centred problem."""
    xm, ym = (x.mean(0), y.mean()) if intercept else (np.zeros(x.shape[1]), 0.0)
    w = np.linalg.lstsq(x - xm, y - ym, rcond=None)[0]
    return w, ym - xm @ w


def main():
    rng = np.random.default_rng(480)
    cases = []
    with tempfile.TemporaryDirectory() as tmp:
        k = 0
        for name, x, y, pred in datasets(rng):
            for lam in (0.0, 0.01, 1.0):
                for intercept in (True, False):
                    for solver in ("exact", "gd") if lam > 0 and x.shape[1] <= 10 else ("exact",):
                        params = {"lambda": lam, "fit_intercept": intercept, "solver": solver}
                        if solver == "gd":
                            params["iters"] = 100000
                        req = {"algorithm": "linear-regression", "params": params,
                               "x": x.tolist(), "y": y.tolist(), "predict": pred.tolist()}
                        with open(os.path.join(tmp, f"request{k:03d}.json"), "w") as f:
                            json.dump(req, f)
                        cases.append((k, name, lam, intercept, solver, x, y, pred))
                        k += 1
        env = dict(os.environ, MARGIN_LINREG_CROSSCHECK=tmp)
        subprocess.run(["go", "test", "-count=1", "-run", "^TestLinearRegressionCrosscheck$", "./internal/fit/"],
                       cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL)
        worst = {"exact": 0.0, "gd": 0.0}
        notes = []
        ok = True
        print(f"{'data':32} {'lambda':>6} {'icpt':>5} {'solver':>6}  {'max|dw|':>9} {'|db|':>9} {'max|dscore|':>11}  reference")
        for k, name, lam, intercept, solver, x, y, pred in cases:
            path = os.path.join(tmp, f"answer{k:03d}.json")
            if not os.path.exists(path):
                with open(os.path.join(tmp, f"error{k:03d}.txt")) as f:
                    print(f"{name}: error {f.read()}")
                ok = False
                continue
            with open(path) as f:
                got = json.load(f)
            w, b = np.array(got["w"]), got["b"]
            rw, rb = reference(x, y, lam, intercept)
            ref = "sklearn"
            if lam == 0:
                mw, mb = min_norm(x, y, intercept)
                if np.max(np.abs(rw - mw)) > 1e-8 * max(1.0, np.max(np.abs(mw))):
                    mse = lambda w, b: np.mean((x @ w + b - y) ** 2)
                    notes.append(f"{name}, intercept {intercept}: sklearn's w differs from the min-norm one by "
                                 f"{np.max(np.abs(rw - mw)):.3g}; |w| sklearn {np.linalg.norm(rw):.6g}, "
                                 f"Margin {np.linalg.norm(w):.6g}; MSE sklearn {mse(rw, rb):.3g}, Margin {mse(w, b):.3g}")
                    if np.linalg.norm(w) > np.linalg.norm(rw) * (1 + 1e-9) or mse(w, b) > mse(rw, rb) + 1e-12:
                        ok = False
                    rw, rb, ref = mw, mb, "numpy lstsq (min-norm)"
            dw = np.max(np.abs(w - rw))
            db = abs(b - rb)
            ds = np.max(np.abs(np.array(got["scores"]) - (pred @ rw + rb)))
            err = max(dw, db) / max(1.0, np.max(np.abs(rw)))
            worst[solver] = max(worst[solver], err)
            print(f"{name:32} {lam:6g} {str(intercept):>5} {solver:>6}  {dw:9.2e} {db:9.2e} {ds:11.2e}  {ref}")
        for n in notes:
            print("note:", n)
        print(f"largest difference relative to max(1, max|w|): exact {worst['exact']:.2e}, gd {worst['gd']:.2e}")
        if worst["exact"] > 1e-6 or worst["gd"] > 1e-6 or not ok:
            sys.exit(1)


if __name__ == "__main__":
    main()
