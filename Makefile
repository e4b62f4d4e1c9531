# Margin's tasks. `make run` serves http://localhost:8080; `make test` is
# everything CI checks. Generated files (*_templ.go, lesson HTML) are
# committed, so building needs only Go.

GO        ?= go
TEMPL_VER := $(shell awk '$$1 == "github.com/a-h/templ" {print $$2}' go.mod)
GOBIN     := $(shell $(GO) env GOPATH)/bin
TEMPL     := $(GOBIN)/templ

.PHONY: run build test vet templ-cli generate check-generated unit golden bench lint imports lesson-html vendor screens fuzz bench-svm crosscheck-lasso load replicas worst a11y memory

run:
	$(GO) run ./cmd/web

build:
	$(GO) build -o bin/margin ./cmd/web

test: vet imports check-generated unit

# Small value structs (Option, Counter, Fact) are written positionally.
vet:
	$(GO) vet -composites=false ./...

# The templ CLI at the version go.mod pins, so generated code matches.
templ-cli:
	@$(TEMPL) version 2>/dev/null | grep -q "$(TEMPL_VER)" || $(GO) install github.com/a-h/templ/cmd/templ@$(TEMPL_VER)

generate: templ-cli
	$(TEMPL) generate

# Fails when the committed *_templ.go files are not what templ generates.
check-generated: templ-cli
	$(TEMPL) generate
	@git diff --exit-code -- '*_templ.go' || (echo "templ generate changed files: run make generate and commit them" && exit 1)
	@test -z "$$(git status --porcelain -- '*_templ.go')" || (echo "untracked *_templ.go files: commit them" && exit 1)

# Unit, handler, golden and browser tests (the browser tests need
# chromium; under CI they must run). The race detector watches the Go
# code, the kit's cache and the server; three kinds of test gain nothing
# from it but an eightfold slowdown, so they run without it: the
# whole-course loops of internal/course and the server's TestEveryDemo
# (every demo through HTTP; both exercise pure, single-threaded demo code
# that the kit's own tests race-check), and the browser tests, which
# drive Chromium.
# The server's tests that loop over every demo (every figure as PNG, every
# run to its end, every page's boxes, both runs of every comparison, every
# question page, two Gram matrices of 1000 points nobody reads) cost 10-20
# times as much under -race and share no state between requests, so they
# run without it, with the browser tests and internal/course's loops.
LOOPS := ^(TestBrowser.*|TestCrowdSlowReaders|TestEveryDemo|TestEveryFigurePNG|TestStepEndEveryDemo|TestExplainAndModelBoxes|TestDemoFacts|TestCompareEveryDemo|TestPredictPagesDoNotLeak)$$
# The topics' second-route checks (every question's step replayed in
# 200-bit or exact rational arithmetic, every panel number recomputed
# over a grid of states, kNN's risk against a finer quadrature) are
# single-threaded numeric loops the race detector slows tenfold (logistic's
# package from 7 s to 61 s): they too run without it.
NUMERIC := ^(TestKNNRiskQuadratureAccuracy|TestProseKNNNumbers|TestKNNRiskMatchesMonteCarlo|TestPredictSoftmaxReplayedIn200Bits|TestPredictLogisticReplayedIn200Bits|TestLogisticPanelSecondRoute|TestSoftmaxPanelSecondRoute|TestPredictExactReplayLasso|TestPredictExactReplayLSGD|TestLassoNotesTrue|TestLassoNumbersSecondRoute|TestPredictSMOReplay200|TestPanelBySecondRoute|TestPredictGDReplays200Bit|TestGDPanelSecondRoute)$$
unit:
	$(GO) test -race -count=1 -skip '$(LOOPS)|$(NUMERIC)' $$($(GO) list ./... | grep -v '/internal/course$$')
	$(GO) test -count=1 ./internal/course/
	$(GO) test -count=1 -run '$(LOOPS)' ./cmd/web/
	$(GO) test -count=1 -run '$(NUMERIC)' ./internal/topics/...

# Rewrite the golden SVGs after a deliberate change to the plots.
golden:
	$(GO) test ./internal/render/... ./internal/course/ ./internal/topics/... -update

bench:
	GOMAXPROCS=1 $(GO) test -run '^$$' -bench . -benchmem ./internal/render/... ./internal/algos/... ./internal/fit/... ./cmd/web/

# Margin's "svm" answer side by side with LIBSVM's svm-train (Debian:
# apt-get install libsvm-tools) on svm.NoisyData, n = 1000 and 5000; fails
# when the dual objectives differ by more than 1e-6 relative. Skips
# without svm-train; not part of make test.
bench-svm:
	MARGIN_BENCH_SVM=1 $(GO) test -count=1 -run '^TestBenchAgainstLIBSVM$$' -v ./internal/fit/svmfit/

# The "lasso" demo's solver side by side with scikit-learn's Lasso on
# seeded data sets and α values (Debian: apt-get install python3-sklearn);
# fails when w or b differ by more than 1e-8. Not part of make test.
# PYTHON is Debian's, where apt puts scikit-learn.
PYTHON ?= /usr/bin/python3
crosscheck-lasso:
	$(PYTHON) tools/crosscheck/lasso.py

# The house import rules: algos and render never reach HTTP or templates,
# render draws plain data, never an algorithm's state; the kit imports no
# algorithm and no topic, and no topic imports another.
imports:
	@for p in ./internal/algos/... ./internal/render/...; do \
	  if $(GO) list -deps $$p | grep -E '^(net/http|github.com/labstack/echo|github.com/a-h/templ)$$'; then \
	    echo "$$p must not import net/http, echo or templ"; exit 1; fi; done
	@if $(GO) list -deps ./internal/render/... | grep 'internal/algos'; then \
	  echo "internal/render must take plain data, not import an algos package"; exit 1; fi
	@if $(GO) list -deps ./internal/demo | grep 'internal/algos/\|internal/topics/'; then \
	  echo "internal/demo (the kit) must import no algorithm and no topic"; exit 1; fi
	@for p in $$($(GO) list ./internal/topics/...); do \
	  if $(GO) list -deps $$p | grep -v "^$$p$$" | grep 'internal/topics/'; then \
	    echo "$$p must not import another topic"; exit 1; fi; done

lint: vet imports

# Regenerate the lessons' typeset HTML and the vendored front-end files
# (needs node and npm).
lesson-html:
	npm ci
	node tools/katex/render.mjs

vendor:
	npm ci
	sh tools/vendor.sh

# Screenshots of the main pages into out/screens, for looking at (needs chromium).
screens:
	MARGIN_SCREENS=1 $(GO) test -run TestScreens -count=1 ./cmd/web/

# Fuzz the demo kit's query parser, seeded from testdata/fuzz (not part
# of make test).
fuzz:
	$(GO) test -run '^$$' -fuzz FuzzParse -fuzztime 60s ./internal/course/

# Issue 18 §1.1: every allowed state under 2 s of CPU. Walks every demo at
# random mixes of its parameters' limits (MARGIN_WORST_TRIES per demo),
# reports the slowest and fails over 2 s. Minutes; not part of make test.
worst:
	MARGIN_WORST=1 MARGIN_WORST_TRIES=$${MARGIN_WORST_TRIES:-40} $(GO) test -count=1 -timeout 30m -run TestWorstStatesCPU -v ./internal/course/

# The load benchmark of issue 18 §3: builds cmd/web, starts it on a
# loopback port and runs each mix for LOAD_DUR (docs/performance.md).
# Not part of make test.
LOAD_DUR ?= 10s
load:
	$(GO) run ./cmd/loadgen -dur $(LOAD_DUR)

# Three replicas behind Debian's nginx (apt-get install -y nginx), the
# lecture and homework mixes through it, one replica killed mid-run
# (deploy/replicas.sh; docs/deploy.md). Not part of make test.
replicas:
	LOAD_DUR=$(LOAD_DUR) deploy/replicas.sh

# Lighthouse's accessibility audit (axe-core) of every lesson and every
# demo's comparison at phone size (390×844) and every presenter view
# (1280×720): builds the server and starts it on a free loopback port,
# prints each page's score and what failed, and fails on any failed
# audit, whatever the score. Needs node, npm and chromium
# (CHROME_PATH); installs Lighthouse into tools/lighthouse from its
# lockfile. A few minutes; not part of make test.
CHROME_PATH ?= /usr/bin/chromium
a11y:
	cd tools/lighthouse && npm ci --no-audit --no-fund --silent
	$(GO) build -o bin/margin-a11y ./cmd/web
	@log=$$(mktemp); bin/margin-a11y -addr 127.0.0.1:0 >$$log 2>&1 & pid=$$!; \
	  trap 'kill $$pid; rm -f $$log' EXIT; \
	  for i in $$(seq 100); do grep -q 'url=' $$log && break; sleep 0.2; done; \
	  url=$$(sed -n 's/.*msg="Margin is serving" url=\([^ ]*\).*/\1/p' $$log | head -1); \
	  test -n "$$url" || { echo "the server did not start:"; cat $$log; exit 1; }; \
	  CHROME_PATH=$(CHROME_PATH) node tools/lighthouse/a11y.mjs $$url

# Issue 28 §3: builds cmd/web, serves it with -memory 512MiB (-response-cache
# 256 -cache 64) and storms it with distinct expensive URLs for
# MEMORY_DUR; fails if RSS passes 563 MiB or /healthz or a cached page
# stops answering 200 (docs/deploy.md). MEMORY_MIB=0 runs it without
# -memory, to compare. About a minute; not part of make test.
MEMORY_DUR ?= 60s
MEMORY_MIB ?= 512
memory:
	MARGIN_MEMORY_STORM=1 MARGIN_MEMORY_STORM_DUR=$(MEMORY_DUR) MARGIN_MEMORY_STORM_MIB=$(MEMORY_MIB) $(GO) test -count=1 -timeout 10m -run '^TestMemoryStorm$$' -v ./cmd/web/
