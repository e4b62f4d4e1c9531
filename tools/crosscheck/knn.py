#!/usr/bin/python3
"""Cross-check Margin's "knn" fit API against scikit-learn.

For random data sets (continuous coordinates, where no two distances tie)
and tie-heavy ones (points on a small integer grid, queries on and between
grid lines) it writes fit requests to a temporary directory, has the Go side
answer them (the env-gated test TestKNNCrosscheck in internal/fit, run with
`go test`), and compares the labels with

    KNeighborsClassifier(n_neighbors=k, algorithm="brute", metric=...)

and with a reference written here from Margin's documented rule: distances
as sum_j (x_j - q_j)^2 (or |x_j - q_j|) added column by column in float64,
the k first in a stable sort by (distance, index), the most common label,
the smallest among equally common ones.

Expected: on continuous data all three agree. On tied data Margin always
equals the reference, and scikit-learn may differ in two ways, which the
script counts and explains rather than fails on:
  * which of several points tied at the k-th distance it keeps: it selects
    with numpy's argpartition, which is not stable, so not the lowest index;
  * for "euclidean", which points tie at all: brute-force euclidean
    distances are computed as sqrt(|x|^2 - 2 x.q + |q|^2), whose rounding
    can split exact ties (and reorder nearly equal distances).
Its vote's tie rule (scipy's mode: the smallest class) is the same as
Margin's. It exits non-zero if Margin ever differs from the reference, or
from scikit-learn on continuous data.
Run from anywhere: python3 tools/crosscheck/knn.py
"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
from sklearn.neighbors import KNeighborsClassifier

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def datasets(rng):
    """Yields (name, tied, x, y, predict)."""
    for n, d in [(60, 2), (500, 2), (300, 5), (200, 12)]:
        x = rng.normal(size=(n, d))
        y = rng.choice([-1, 1], size=n)
        yield f"random {n}x{d} +-1", False, x, y, rng.normal(size=(150, d))
    x = rng.normal(size=(400, 3))
    yield "random 400x3 0/1/2/7", False, x, rng.choice([0, 1, 2, 7], size=400), rng.normal(size=(150, 3))
    for n, d, side in [(80, 2, 5), (300, 2, 8), (200, 3, 4)]:
        x = rng.integers(0, side, size=(n, d)).astype(float)
        y = rng.choice([-1, 1, 3], size=n)
        pred = rng.integers(-2, 2 * side + 2, size=(200, d)) / 2.0
        yield f"grid {n}x{d} side {side}", True, x, y, pred
    # The same on a grid of step 0.1, whose coordinates are not exact in
    # binary: ties in exact arithmetic may or may not survive rounding.
    x = rng.integers(0, 8, size=(300, 2)) / 10.0 + 0.3
    pred = rng.integers(-2, 18, size=(200, 2)) / 20.0 + 0.3
    yield "grid 300x2 step 0.1", True, x, rng.choice([-1, 1, 3], size=300), pred


def reference(x, y, q, k, metric):
    s = np.zeros(len(x))
    for j in range(x.shape[1]):  # column by column, as Margin adds
        t = x[:, j] - q[j]
        s = s + (np.abs(t) if metric == "manhattan" else t * t)
    order = np.lexsort((np.arange(len(x)), s))  # by distance, then index
    labels, counts = np.unique(y[order[:k]], return_counts=True)
    return labels[np.argmax(counts)], s, order


def main():
    rng = np.random.default_rng(5200)
    cases = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, tied, x, y, pred in datasets(rng):
            n = len(y)
            for metric in ("euclidean", "manhattan"):
                for k in sorted({1, 2, 3, 5, 8, 15, n // 2, n}):
                    req = {"algorithm": "knn", "params": {"k": int(k), "metric": metric},
                           "x": x.tolist(), "y": [int(v) for v in y], "predict": pred.tolist()}
                    with open(os.path.join(tmp, f"request{len(cases):03d}.json"), "w") as f:
                        json.dump(req, f)
                    cases.append((name, tied, metric, int(k), x, y, pred))

        env = dict(os.environ, MARGIN_KNN_CROSSCHECK=tmp)
        subprocess.run(["go", "test", "-count=1", "-run", "^TestKNNCrosscheck$", "./internal/fit/"],
                       cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL)

        ok = True
        totals = {"queries": 0, "vs_ref": 0, "vs_sklearn": 0, "boundary_tie": 0, "split_tie": 0}
        print(f"{'data':26} {'metric':9} {'k':>4}  {'!=ref':>5} {'!=sklearn':>9}  explained")
        for i, (name, tied, metric, k, x, y, pred) in enumerate(cases):
            path = os.path.join(tmp, f"answer{i:03d}.json")
            if not os.path.exists(path):
                with open(os.path.join(tmp, f"error{i:03d}.txt")) as f:
                    print(f"{name:26} {metric:9} {k:4}  ERROR {f.read()}")
                ok = False
                continue
            with open(path) as f:
                got = json.load(f)["labels"]
            sk = KNeighborsClassifier(n_neighbors=k, algorithm="brute", metric=metric).fit(x, y).predict(pred)
            bad_ref = bad_sk = boundary = split = 0
            for j, q in enumerate(pred):
                want, s, order = reference(x, y, q, k, metric)
                bad_ref += got[j] != want
                if got[j] != sk[j]:
                    bad_sk += 1
                    kth = s[order[k - 1]]
                    if k < len(s) and s[order[k]] == kth:
                        boundary += 1  # several points tie at the k-th distance
                    else:
                        split += 1  # sklearn's own rounding split or reordered a tie
            totals["queries"] += len(pred)
            totals["vs_ref"] += bad_ref
            totals["vs_sklearn"] += bad_sk
            totals["boundary_tie"] += boundary
            totals["split_tie"] += split
            flag = ""
            if bad_ref or (bad_sk and not tied):
                flag, ok = "  <-- unexpected", False
            expl = f"{boundary} tie at k-th, {split} sklearn rounding" if bad_sk else ""
            print(f"{name:26} {metric:9} {k:4}  {bad_ref:5} {bad_sk:9}  {expl}{flag}")
        print()
        print(f"{totals['queries']} queries: {totals['vs_ref']} differ from the reference, "
              f"{totals['vs_sklearn']} from scikit-learn ({totals['boundary_tie']} with a tie at the k-th "
              f"distance, {totals['split_tie']} where scikit-learn's distances split a tie)")
        sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
