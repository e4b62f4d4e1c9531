// Command loadgen is Margin's load benchmark (make load, make replicas). It
// builds and starts cmd/web on a loopback port (or aims at -target), runs
// the mixes of issue 18 §3 for -dur each and prints throughput, p50/p99 and
// the answers by status for each, with /healthz's p99 measured alongside.
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"math/rand"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

func main() {
	dur := flag.Duration("dur", 10*time.Second, "how long each mix runs")
	mixes := flag.String("mixes", "static,lecture,homework,png,present,overload,slow,fitstorm", "mixes to run, in order")
	target := flag.String("target", "", "base URL of a running server (default: build and start cmd/web on loopback)")
	killPID := flag.Int("kill", 0, "pid to SIGKILL halfway through each mix's run (a replica)")
	flag.Float64Var(&rateOverride, "rate", 0, "arrivals per second of the open-loop mixes (default: each mix's own)")
	flag.BoolVar(&identity, "identity", false, "ask for uncompressed answers (to measure what gzip costs)")
	flag.IntVar(&topN, "top", 0, "also print each mix's N slowest requests and its p99 by demo, to find what makes the tail")
	flag.Parse()
	if err := run(*dur, strings.Split(*mixes, ","), *target, *killPID); err != nil {
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		os.Exit(1)
	}
}

func run(dur time.Duration, mixes []string, target string, killPID int) error {
	pid := 0 // the server's, when loadgen started it: its memory and CPU are measured
	if target == "" {
		base, p, stop, err := startServer()
		if err != nil {
			return err
		}
		defer stop()
		target, pid = base, p
	}
	ws, err := newWorkload()
	if err != nil {
		return err
	}
	fmt.Printf("# %s, %d cores (GOMAXPROCS %d), %s/%s, target %s, %s per mix\n",
		time.Now().UTC().Format("2006-01-02 15:04 MST"), runtime.NumCPU(), runtime.GOMAXPROCS(0), runtime.GOOS, runtime.GOARCH, target, dur)
	fmt.Printf("%-9s %6s %9s %8s %8s %10s %8s %8s  %s\n", "mix", "load", "req/s", "p50", "p99", "healthz99", "rss", "cpu+2s", "answers by status")
	for _, name := range mixes {
		m, ok := ws.mix(name)
		if !ok {
			return fmt.Errorf("unknown mix %q", name)
		}
		kill := 0
		if name == mixes[len(mixes)-1] {
			kill = killPID // the replica dies once, in the last mix
		}
		if m.Rate > 0 && rateOverride > 0 {
			m.Rate = rateOverride
		}
		r := drive(target, m, dur, kill, pid)
		fmt.Println(r.line(name, m))
		r.printTop(topN)
	}
	return nil
}

// startServer builds ./cmd/web and runs it on a free loopback port.
func startServer() (string, int, func(), error) {
	dir, err := os.MkdirTemp("", "margin-load")
	if err != nil {
		return "", 0, nil, err
	}
	bin := filepath.Join(dir, "margin")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/web").CombinedOutput(); err != nil {
		return "", 0, nil, fmt.Errorf("go build ./cmd/web: %v\n%s", err, out)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", 0, nil, err
	}
	addr := ln.Addr().String()
	ln.Close()
	cmd := exec.Command(bin, "-addr", addr)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return "", 0, nil, err
	}
	stop := func() { cmd.Process.Signal(syscall.SIGTERM); cmd.Wait(); os.RemoveAll(dir) }
	base := "http://" + addr
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if resp, err := http.Get(base + "/healthz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return base, cmd.Process.Pid, stop, nil
			}
		}
	}
	stop()
	return "", 0, nil, fmt.Errorf("%s/healthz did not answer within 60 s", base)
}

// A mix is closed-loop (Clients each send the next request when the last
// is answered) or open-loop (Poisson arrivals at Rate per second).
type mix struct {
	Clients int
	Rate    float64
	Next    func(r *rand.Rand) string
	Body    func(r *rand.Rand) []byte // when set, each request POSTs it
}

// The diagnostics' flags (-rate, -top).
var (
	identity     bool
	rateOverride float64
	topN         int
)

type result struct {
	mu       sync.Mutex
	lat      []time.Duration
	paths    []string // the path of each lat, for -top
	status   map[string]int
	health   []time.Duration
	retry503 int
	elapsed  time.Duration
	peakRSS  int64         // the server's peak resident memory during the mix, bytes
	cpuAfter time.Duration // the server's CPU time in the 2 s after the clients left
	cpuRun   time.Duration // the server's CPU time while the mix ran
}

func (r *result) add(code string, d time.Duration, retryAfter bool) {
	r.addPath("", code, d, retryAfter)
}

func (r *result) addPath(path, code string, d time.Duration, retryAfter bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.status[code]++
	if code == "503" && retryAfter {
		r.retry503++
	}
	if code != "err" && code != "503" {
		r.lat = append(r.lat, d)
		r.paths = append(r.paths, path)
	}
}

// client does not follow redirects: the mixes ask for canonical URLs, so
// a 3xx in the status counts is a mix asking for the wrong URL (each
// redirect is computed anew: the response cache keeps only 200s).
var client = &http.Client{
	Transport:     &http.Transport{MaxIdleConnsPerHost: 2000, MaxConnsPerHost: 0, DisableCompression: false},
	Timeout:       30 * time.Second,
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
}

func do(base, path string, body []byte) (string, time.Duration, bool) {
	t := time.Now()
	var resp *http.Response
	var err error
	req, err := http.NewRequest(http.MethodGet, base+path, nil)
	if body != nil {
		req, err = http.NewRequest(http.MethodPost, base+path, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
	}
	if err != nil {
		return "err", time.Since(t), false
	}
	if !identity {
		// Asked for explicitly, gzip reaches us as sent: the client reads
		// the bytes without inflating them, as a browser on another
		// machine would, so the CPU it shares with the server here is not
		// spent on the client's half of the work.
		req.Header.Set("Accept-Encoding", "gzip")
	}
	resp, err = client.Do(req)
	if err != nil {
		return "err", time.Since(t), false
	}
	if os.Getenv("LOADGEN_DEBUG") != "" && resp.StatusCode == 400 {
		b, _ := io.ReadAll(resp.Body)
		fmt.Fprintln(os.Stderr, path, string(b[:min(len(b), 300)]))
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return fmt.Sprint(resp.StatusCode), time.Since(t), resp.Header.Get("Retry-After") != ""
}

func drive(base string, m mix, dur time.Duration, killPID, pid int) *result {
	r := &result{status: map[string]int{}}
	ctx, cancel := context.WithTimeout(context.Background(), dur)
	defer cancel()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // /healthz alongside, 20 a second
		defer wg.Done()
		for t := time.NewTicker(50 * time.Millisecond); ctx.Err() == nil; <-t.C {
			_, d, _ := do(base, "/healthz", nil)
			r.mu.Lock()
			r.health = append(r.health, d)
			r.mu.Unlock()
		}
	}()
	if pid > 0 {
		wg.Add(1)
		go func() { // the server's memory, 100 times a second
			defer wg.Done()
			for t := time.NewTicker(10 * time.Millisecond); ctx.Err() == nil; <-t.C {
				r.peakRSS = max(r.peakRSS, rss(pid))
			}
		}()
	}
	send := func(rng *rand.Rand) (string, string, time.Duration, bool) {
		path := m.Next(rng)
		var body []byte
		if m.Body != nil {
			body = m.Body(rng)
		}
		code, d, ra := do(base, path, body)
		return path, code, d, ra
	}
	if killPID > 0 {
		time.AfterFunc(dur/2, func() { syscall.Kill(killPID, syscall.SIGKILL) })
	}
	start := time.Now()
	var cpu0 time.Duration
	if pid > 0 {
		cpu0 = cpu(pid)
	}
	if m.Clients > 0 {
		for i := 0; i < m.Clients; i++ {
			wg.Add(1)
			go func(seed int64) {
				defer wg.Done()
				rng := rand.New(rand.NewSource(seed))
				for ctx.Err() == nil {
					path, code, d, ra := send(rng)
					if ctx.Err() == nil || code != "err" {
						r.addPath(path, code, d, ra)
					}
				}
			}(int64(i))
		}
	} else {
		rng := rand.New(rand.NewSource(1))
		for next := time.Now(); ctx.Err() == nil; {
			next = next.Add(time.Duration(rng.ExpFloat64() / m.Rate * float64(time.Second)))
			time.Sleep(time.Until(next))
			seed := rng.Int63()
			wg.Add(1)
			go func() {
				defer wg.Done()
				path, code, d, ra := send(rand.New(rand.NewSource(seed)))
				r.addPath(path, code, d, ra)
			}()
		}
	}
	wg.Wait()
	r.elapsed = time.Since(start)
	if pid > 0 {
		r.cpuRun = cpu(pid) - cpu0
		// Work must stop when its clients leave (issue 18 §3).
		before := cpu(pid)
		time.Sleep(2 * time.Second)
		r.cpuAfter = cpu(pid) - before
	}
	return r
}

// rss is process pid's resident memory in bytes, from /proc (0 if unknown).
func rss(pid int) int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(data)) {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// cpu is process pid's user and system CPU time so far, from /proc (in
// the kernel's 100 Hz ticks).
func cpu(pid int) time.Duration {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The command name in parentheses may hold spaces: fields count from
	// the last ')'.
	f := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+1:]))
	if len(f) < 13 {
		return 0
	}
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * 10 * time.Millisecond
}

func pct(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[int(p*float64(len(s)-1))]
}

func (r *result) line(name string, m mix) string {
	load := fmt.Sprintf("%dc", m.Clients)
	if m.Clients == 0 {
		load = fmt.Sprintf("%.0f/s", m.Rate)
	}
	codes := make([]string, 0, len(r.status))
	for c := range r.status {
		codes = append(codes, c)
	}
	sort.Strings(codes)
	var sb strings.Builder
	for _, c := range codes {
		fmt.Fprintf(&sb, "%s:%d ", c, r.status[c])
	}
	if r.status["503"] > 0 {
		fmt.Fprintf(&sb, "(503 with Retry-After: %d)", r.retry503)
	}
	ok := float64(r.status["200"]) / r.elapsed.Seconds()
	ms := func(d time.Duration) string { return fmt.Sprintf("%.1fms", float64(d.Microseconds())/1000) }
	mem, after := "-", "-"
	if r.peakRSS > 0 {
		mem, after = fmt.Sprintf("%.0fMB", float64(r.peakRSS)/1e6), ms(r.cpuAfter)
	}
	return fmt.Sprintf("%-9s %6s %9.0f %8s %8s %10s %8s %8s  %s", name, load, ok, ms(pct(r.lat, .5)), ms(pct(r.lat, .99)), ms(pct(r.health, .99)), mem, after, sb.String())
}

// printTop prints the n slowest answered requests and the p99 of each
// path's first element (the demo), slowest first: where a mix's tail
// comes from.
func (r *result) printTop(n int) {
	if n <= 0 || len(r.lat) == 0 {
		return
	}
	if r.cpuRun > 0 {
		fmt.Printf("  server CPU %.2f s for %d answers: %.2f ms each\n", r.cpuRun.Seconds(), len(r.lat), r.cpuRun.Seconds()*1000/float64(len(r.lat)))
	}
	idx := make([]int, len(r.lat))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return r.lat[idx[a]] > r.lat[idx[b]] })
	for _, i := range idx[:min(n, len(idx))] {
		fmt.Printf("  %8s  %s\n", r.lat[i].Round(time.Millisecond), r.paths[i])
	}
	by := map[string][]time.Duration{}
	for i, p := range r.paths {
		k, _, _ := strings.Cut(p, "?")
		by[k] = append(by[k], r.lat[i])
	}
	type row struct {
		k        string
		p50, p99 time.Duration
		n        int
	}
	var rows []row
	for k, ls := range by {
		sort.Slice(ls, func(a, b int) bool { return ls[a] < ls[b] })
		rows = append(rows, row{k, ls[len(ls)/2], ls[len(ls)*99/100], len(ls)})
	}
	sort.Slice(rows, func(a, b int) bool { return rows[a].p99 > rows[b].p99 })
	for _, x := range rows {
		fmt.Printf("  %-40s n=%5d p50 %8s p99 %8s\n", x.k, x.n, x.p50.Round(time.Millisecond/10), x.p99.Round(time.Millisecond/10))
	}
}
