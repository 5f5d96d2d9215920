package allocbench

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Upstream's search is exponential in the impossible scenarios and ignores
// its context there, so it runs in a child process that is killed when the
// cap passes. ALLOCBENCH_UPSTREAM_CAP overrides the cap (a Go duration).
const childEnv = "ALLOCBENCH_CHILD"

func upstreamCap() time.Duration {
	if v := os.Getenv("ALLOCBENCH_UPSTREAM_CAP"); v != "" {
		if d, err := time.ParseDuration(v); err == nil {
			return d
		}
	}
	return 10 * time.Second
}

func TestMain(m *testing.M) {
	if name := os.Getenv(childEnv); name != "" {
		os.Exit(runChild(name))
	}
	os.Exit(m.Run())
}

// runChild runs one operation of a scenario with upstream's allocator and
// prints how long it took.
func runChild(scenario string) int {
	for _, sc := range BenchScenarios() {
		if sc.Name != scenario {
			continue
		}
		inv := sc.Inventory()
		r := NewUpstreamRunner(inv)
		ctx := context.Background()
		start := time.Now()
		if _, err := sc.Op(ctx, r, inv, 0); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		fmt.Printf("elapsed %d\n", time.Since(start).Nanoseconds())
		return 0
	}
	fmt.Fprintln(os.Stderr, "unknown scenario", scenario)
	return 2
}

// BenchmarkAllocate runs every scenario with both allocators. The metric
// ns/claim divides the time by the claims allocated (or refuted).
func BenchmarkAllocate(b *testing.B) {
	for _, sc := range BenchScenarios() {
		b.Run(sc.Name, func(b *testing.B) {
			b.Run("drakit", func(b *testing.B) {
				runBench(b, sc, func(inv *Inventory) (Runner, error) { return NewDrakitRunner(inv) })
			})
			b.Run("upstream", func(b *testing.B) {
				if sc.Impossible {
					runCapped(b, sc)
					return
				}
				runBench(b, sc, func(inv *Inventory) (Runner, error) { return NewUpstreamRunner(inv), nil })
			})
		})
	}
}

func runBench(b *testing.B, sc BenchScenario, newRunner func(*Inventory) (Runner, error)) {
	ctx := context.Background()
	inv := sc.Inventory()
	fresh := func() Runner {
		r, err := newRunner(inv)
		if err != nil {
			b.Fatal(err)
		}
		if sc.Warm != nil {
			if err := sc.Warm(ctx, r, inv); err != nil {
				b.Fatal(err)
			}
		}
		return r
	}
	r := fresh()
	b.ReportAllocs()
	b.ResetTimer()
	for i, op := 0, 0; i < b.N; op++ {
		exhausted, err := sc.Op(ctx, r, inv, op)
		if err != nil {
			b.Fatal(err)
		}
		if exhausted {
			b.StopTimer()
			r.Reset()
			op = -1
			b.StartTimer()
			continue
		}
		i++
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*sc.ClaimsPerOp), "ns/claim")
}

// runCapped runs one upstream operation per iteration in a child process,
// stopping it at the cap; a capped run reports the cap as its time and
// capped=1.
func runCapped(b *testing.B, sc BenchScenario) {
	limit := upstreamCap()
	var total time.Duration
	capped := 0.0
	for i := 0; i < b.N; i++ {
		ctx, cancel := context.WithTimeout(context.Background(), limit+5*time.Second)
		cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), childEnv+"="+sc.Name)
		var out bytes.Buffer
		cmd.Stdout = &out
		cmd.Stderr = &out
		if err := cmd.Start(); err != nil {
			cancel()
			b.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		var elapsed time.Duration
		select {
		case err := <-done:
			if err != nil {
				cancel()
				b.Fatalf("upstream child: %v: %s", err, out.String())
			}
			line := strings.TrimSpace(out.String())
			ns, perr := strconv.ParseInt(strings.TrimPrefix(line[strings.LastIndex(line, "elapsed "):], "elapsed "), 10, 64)
			if perr != nil {
				cancel()
				b.Fatalf("upstream child output %q", line)
			}
			elapsed = time.Duration(ns)
			if elapsed > limit {
				elapsed, capped = limit, 1
			}
		case <-time.After(limit + 2*time.Second):
			// The child needs a moment to build the scenario; the cap
			// applies to the allocation.
			_ = cmd.Process.Kill()
			<-done
			elapsed, capped = limit, 1
		}
		cancel()
		total += elapsed
	}
	b.ReportMetric(float64(total.Nanoseconds())/float64(b.N*sc.ClaimsPerOp), "ns/claim")
	b.ReportMetric(capped, "capped")
	b.ReportMetric(limit.Seconds(), "cap-s")
}
