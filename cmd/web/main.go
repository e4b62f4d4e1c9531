// Command web serves Margin: the lessons, their live demos, the plot
// endpoints and the JSON fit API, from one self-contained binary.
//
//	web [-addr :8080] [-public-url https://margin.example] [-memory 512MiB]
//
// The PORT environment variable sets the port when -addr is not given,
// MARGIN_PUBLIC_URL the public URL when -public-url is not, and
// MARGIN_MEMORY the memory budget when -memory is not.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/margin-edu/margin/internal/course"
	"github.com/margin-edu/margin/internal/demo"
)

// gcPercent is the garbage collector's target unless GOGC says otherwise.
// Drawing a plot allocates freely (gonum/plot's SVG canvas formats every
// coordinate), and at Go's default of 100 the collector took a fifth of the
// CPU under the homework load; at 200 the same 2 cores delivered 470-490
// plots a second instead of about 400 (docs/performance.md). The heap stays
// bounded: admission control caps the computations at once, and the caches
// are bounded in bytes.
const gcPercent = 200

// cores is the CPUs the process may use, as the Go runtime counts them
// (the machine's, or a container's CPU limit) before main raises
// GOMAXPROCS: admission control admits work per core of it.
var cores = runtime.GOMAXPROCS(0)

// spareProcs is how many Go processors the server runs per core unless
// GOMAXPROCS says otherwise. Admission control lets workPerCore·cores
// expensive computations run at once, and with one processor per core they
// held every processor: a health check, a static file or a cache hit then
// waited in Go's run queue for a computation's 10 ms time slice, and under
// overload /healthz's p99 was 100-260 ms. With spare processors the cheap
// requests run at once and the kernel shares the cores between threads at
// its finer grain: /healthz's p99 under overload fell from 112-184 ms to
// 11-20 ms in A/B runs (docs/performance.md).
const spareProcs = 2

func main() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	if os.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(spareProcs * cores)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "web:", err)
		os.Exit(1)
	}
}

// run starts the server and blocks until ctx is cancelled, then shuts
// down gracefully, letting requests in flight finish for up to 10 s.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("web", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "", "listen address (default :8080, or :$PORT)")
	cacheMiB := fs.Int("cache", demo.DefaultCacheBytes>>20, "MiB the demos may keep of sweeps, optima and runs between requests")
	var lim limits
	fs.IntVar(&lim.workPerCore, "work-per-core", 1, "expensive computations (pages, plots, CSV, the APIs) run at once per core")
	fs.IntVar(&lim.queue, "work-queue", 256, "expensive requests that may wait for a slot; more are refused with 503")
	fs.DurationVar(&lim.wait, "work-wait", 500*time.Millisecond, "how long a request waits for a slot before a 503 with Retry-After")
	respMiB := fs.Int("response-cache", 256, "MiB of rendered responses (pages, plots) kept between requests")
	memory := fs.String("memory", getenv("MARGIN_MEMORY"), "the process's memory budget, as GOMEMLIMIT writes it (512MiB, 2GiB): the collector works harder near it, and uncached work answers 503 once the live heap reaches 90 % of it; default $MARGIN_MEMORY, else GOMEMLIMIT's, else none (docs/deploy.md)")
	publicURL := fs.String("public-url", getenv("MARGIN_PUBLIC_URL"), "origin students reach Margin at (https://margin.example), for QR codes and copied links; default $MARGIN_PUBLIC_URL, else each request's Host")
	if err := fs.Parse(args); err != nil {
		return err
	}
	cfg, err := newConfig(*publicURL)
	if err != nil {
		return err
	}
	if *cacheMiB <= 0 {
		return fmt.Errorf("-cache %d: give a positive number of MiB", *cacheMiB)
	}
	if lim.workPerCore <= 0 || lim.queue < 0 || lim.wait < 0 || *respMiB < 0 {
		return fmt.Errorf("-work-per-core must be positive; -work-queue, -work-wait and -response-cache not negative")
	}
	lim.cacheBytes = int64(*respMiB) << 20
	if *memory != "" {
		n, err := parseBytes(*memory)
		if err != nil {
			return fmt.Errorf("-memory %q: %w", *memory, err)
		}
		debug.SetMemoryLimit(n)
	}
	if *addr == "" {
		*addr = ":8080"
		if p := getenv("PORT"); p != "" {
			*addr = ":" + p
		}
	}
	logger := slog.New(slog.NewTextHandler(stdout, nil))
	course, err := buildCourse(ctx, int64(*cacheMiB)<<20)
	if err != nil {
		return err
	}
	e := NewServerConfig(logger, course, cfg)
	srv := &http.Server{
		Addr:              *addr,
		Handler:           crowdHandler(e, lim),
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    1 << 20,
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	logger.Info("Margin is serving", "url", "http://"+displayAddr(ln.Addr()))
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	logger.Info("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return err
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// buildCourse builds Margin's course with a cache of cacheBytes and
// checks it (Course.Build: every lesson's prose parsed, every demo's
// default state computed and its view made), so that a broken lesson
// stops the server at start-up with a message naming it.
func buildCourse(ctx context.Context, cacheBytes int64) (*demo.Course, error) {
	course, err := course.Default()
	if err != nil {
		return nil, fmt.Errorf("the course is broken: %w", err)
	}
	if err := checkCourse(ctx, course, cacheBytes); err != nil {
		return nil, err
	}
	return course, nil
}

// checkCourse sets course's cache budget and builds it (Course.Build),
// with an error that says a lesson is broken and lists what failed.
func checkCourse(ctx context.Context, course *demo.Course, cacheBytes int64) error {
	course.Cache.SetBudget(cacheBytes)
	if err := course.Build(ctx); err != nil {
		return fmt.Errorf("a lesson is broken:\n%w", err)
	}
	return nil
}

// minMemory is the least -memory accepts: the course, built, and its
// default views take about 100 MiB of heap.
const minMemory = 128 << 20

// parseBytes reads a size as GOMEMLIMIT does: a whole number of bytes
// with an optional unit B, KiB, MiB, GiB or TiB ("512MiB").
func parseBytes(s string) (int64, error) {
	units := []struct {
		suffix string
		shift  uint
	}{{"TiB", 40}, {"GiB", 30}, {"MiB", 20}, {"KiB", 10}, {"B", 0}}
	num, shift := strings.TrimSpace(s), uint(0)
	for _, u := range units {
		if n, ok := strings.CutSuffix(num, u.suffix); ok {
			num, shift = strings.TrimSpace(n), u.shift
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n <= 0 || n > math.MaxInt64>>shift {
		return 0, errors.New("give a positive whole number of bytes with B, KiB, MiB, GiB or TiB, such as 512MiB")
	}
	if n<<shift < minMemory {
		return 0, fmt.Errorf("under %s, too little to serve the course", byteSize(minMemory))
	}
	return n << shift, nil
}

func displayAddr(a net.Addr) string {
	if t, ok := a.(*net.TCPAddr); ok && t.IP.IsUnspecified() {
		return fmt.Sprintf("localhost:%d", t.Port)
	}
	return a.String()
}
