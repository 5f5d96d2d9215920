package allocbench

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkAllocate runs every scenario with drakit's allocator and each
// upstream implementation, in two modes:
//
//	BenchmarkAllocate/<scenario>/cold/<allocator>  a fresh allocator each
//	    iteration (drakit: allocator.New; upstream: a new CEL cache and a
//	    new Allocator) running the scenario's first operation. Cold
//	    pays for everything a fresh process pays: neither side shares
//	    compiled CEL programs or any other state between iterations
//	    (drakit keeps its programs in the Allocator, never in package-level
//	    caches), so the numbers are those of a first claim;
//	BenchmarkAllocate/<scenario>/warm/<allocator>  one long-lived runner
//	    after the scenario's warm-up, running operation after operation.
//
// <allocator> is drakit or one of upstream's stable, incubating and
// experimental that supports the scenario's features (the one a 1.37
// scheduler picks is the first of them); drakit runs every scenario with
// its features. Every operation is held to its scenario's expectation
// (runOp): it allocates, or, in the impossible scenarios, it fails;
// otherwise the benchmark fails naming the claim and the error. ns/claim
// divides the time by the claims allocated (or refuted). Upstream's search
// is exponential in the impossible scenarios; every operation runs under
// the cap ALLOCBENCH_UPSTREAM_CAP (a Go duration, default 10s), and a
// benchmark whose operation reaches it stops there and reports the cap as
// its ns/op, with capped=1.
func BenchmarkAllocate(b *testing.B) {
	for _, sc := range BenchScenarios() {
		b.Run(sc.Name, func(b *testing.B) {
			inv := sc.Inventory()
			runners := benchRunners(inv)
			for _, cold := range []bool{true, false} {
				mode := "warm"
				if cold {
					mode = "cold"
				}
				b.Run(mode, func(b *testing.B) {
					for _, r := range runners {
						b.Run(r.name, func(b *testing.B) {
							runBench(b, sc, inv, r.new, cold)
						})
					}
				})
			}
		})
	}
}

func upstreamCap() time.Duration {
	if v := os.Getenv("ALLOCBENCH_UPSTREAM_CAP"); v != "" {
		if d, err := time.ParseDuration(v); err == nil {
			return d
		}
	}
	return 10 * time.Second
}

// runBench times b.N operations. Cold: each iteration builds a runner and
// runs operation 0. Warm: one runner, warmed up untimed, runs operations
// 0, 1, 2, ... and is reset (untimed) when the scenario says its
// operations used up the free devices.
func runBench(b *testing.B, sc BenchScenario, inv *Inventory, newRunner func() (Runner, error), cold bool) {
	limit := upstreamCap()
	fresh := func() Runner {
		r, err := newRunner()
		if err != nil {
			b.Fatal(err)
		}
		return r
	}
	var r Runner
	rec := &recordingRunner{}
	if !cold {
		r = fresh()
		if sc.Warm != nil {
			if err := sc.Warm(context.Background(), r, inv); err != nil {
				b.Fatal(err)
			}
		}
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b.ReportAllocs()
	b.ResetTimer()
	watch := newOpWatch(limit)
	defer watch.stop()
	done, capped := 0, false
	for op := 0; done < b.N; op++ {
		if cold {
			r, op = fresh(), 0
		}
		watch.begin()
		exhausted, err := runOp(watch.ctx, sc, rec, r, inv, op)
		watch.end()
		if watch.ctx.Err() != nil {
			capped = true
			break
		}
		if err != nil {
			b.Fatal(err)
		}
		switch {
		case cold:
			b.StopTimer()
			r.Reset() // upstream runners share the inventory's devices in use
			b.StartTimer()
			done++
		case exhausted:
			b.StopTimer()
			r.Reset()
			op = -1
			b.StartTimer()
		default:
			done++
		}
	}
	b.StopTimer()
	if r != nil {
		r.Reset()
	}
	if capped {
		// Report per operation run (the capped one included), not per b.N.
		runtime.ReadMemStats(&after)
		n := float64(done + 1)
		b.ReportMetric(float64(limit.Nanoseconds()), "ns/op")
		b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/n, "B/op")
		b.ReportMetric(float64(after.Mallocs-before.Mallocs)/n, "allocs/op")
		b.ReportMetric(float64(limit.Nanoseconds())/float64(sc.ClaimsPerOp), "ns/claim")
		b.ReportMetric(1, "capped")
		return
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*sc.ClaimsPerOp), "ns/claim")
}

// TestBenchScenarios runs each benchmark scenario's first operation once
// with every allocator, drakit included, held to the scenario's
// expectation as in the benchmarks (runOp), so that hack/allocbench.sh
// (which runs no benchmarks) notices when a scenario stops working or an
// allocator stops doing what the scenario expects. In the impossible
// scenarios upstream gets 200ms, and reaching that is expected.
func TestBenchScenarios(t *testing.T) {
	rec := &recordingRunner{}
	for _, sc := range BenchScenarios() {
		inv := sc.Inventory()
		for _, nr := range benchRunners(inv) {
			name, newRunner := nr.name, nr.new
			r, err := newRunner()
			if err != nil {
				t.Fatalf("%s/%s: %v", sc.Name, name, err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			capped := sc.Impossible && name != "drakit"
			if capped {
				ctx, cancel = context.WithTimeout(context.Background(), 200*time.Millisecond)
			}
			_, err = runOp(ctx, sc, rec, r, inv, 0)
			cancel()
			r.Reset()
			if err != nil && !(capped && errors.Is(err, context.DeadlineExceeded)) {
				t.Errorf("%s/%s: %v", sc.Name, name, err)
			}
		}
	}
}

// namedRunner makes a fresh runner of one allocator.
type namedRunner struct {
	name string
	new  func() (Runner, error)
}

// benchRunners are drakit and every upstream implementation that supports
// the inventory's features, in the order NewAllocator tries them.
func benchRunners(inv *Inventory) []namedRunner {
	up := toUpstream(inv)
	out := []namedRunner{{"drakit", func() (Runner, error) { return NewDrakitRunner(inv) }}}
	for _, impl := range SupportingImplementations(inv.Features) {
		out = append(out, namedRunner{impl, func() (Runner, error) { return NewUpstreamRunner(impl, up), nil }})
	}
	return out
}

// opWatch caps each operation at limit without a timer per operation
// (context.WithTimeout costs about 8% of a warm drakit claim, which is not
// the allocator's time): one context for the whole benchmark, cancelled
// by a watcher that wakes every limit/20 and finds the running operation
// older than limit. An operation may so run up to limit*21/20 before it is
// stopped; the capped benchmark reports limit all the same.
type opWatch struct {
	ctx    context.Context
	cancel context.CancelCauseFunc
	limit  time.Duration
	start  atomic.Int64 // when the running operation began (UnixNano), 0 between operations
	quit   chan struct{}
}

func newOpWatch(limit time.Duration) *opWatch {
	ctx, cancel := context.WithCancelCause(context.Background())
	w := &opWatch{ctx: ctx, cancel: cancel, limit: limit, quit: make(chan struct{})}
	go w.watch()
	return w
}

func (w *opWatch) watch() {
	tick := time.NewTicker(max(w.limit/20, time.Millisecond))
	defer tick.Stop()
	for {
		select {
		case <-w.quit:
			return
		case now := <-tick.C:
			if s := w.start.Load(); s != 0 && now.UnixNano()-s > int64(w.limit) {
				w.cancel(fmt.Errorf("operation ran over ALLOCBENCH_UPSTREAM_CAP (%v): %w", w.limit, context.DeadlineExceeded))
				return
			}
		}
	}
}

func (w *opWatch) begin() { w.start.Store(time.Now().UnixNano()) }
func (w *opWatch) end()   { w.start.Store(0) }

func (w *opWatch) stop() {
	close(w.quit)
	w.cancel(nil)
}
