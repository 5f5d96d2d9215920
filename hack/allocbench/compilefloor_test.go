package allocbench

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/drakit/drakit/allocator"
	"github.com/drakit/drakit/apis/resource"
	drakitcel "github.com/drakit/drakit/apis/resource/cel"
)

// BenchmarkCompileFloor times what compiling a scenario's selectors in
// cel-go costs, once each, and nothing else:
//
//	BenchmarkCompileFloor/<scenario>/upstream  a new upstream CEL cache (as
//	    the cold upstream runner creates it) compiling each expression;
//	BenchmarkCompileFloor/<scenario>/drakit    each expression compiled as
//	    drakit's Allocator compiles one it needs the real program for
//	    (Allocator.compile).
//
// The expressions are the selectors of the requests and subrequests of
// the claims operation 0 asks about and of the classes those name, each
// distinct one once (both caches compile an expression once). ns/claim
// divides by the scenario's claims per operation, like BenchmarkAllocate,
// so that the two can be set side by side. Upstream pays this in every
// cold run; it is why a cold target of 0.5x is out of reach of an
// allocator that compiles every selector (in cel-heavy-512, tainted-half
// and shared-nics the compile alone is 40% to 60% of upstream's cold
// time). drakit's cold runs pay it only for selectors outside the simple
// grammar (cel.Options.FastPath): the drakit line's "simple" metric
// counts the expressions that are not compiled at all in a cold run.
func BenchmarkCompileFloor(b *testing.B) {
	for _, sc := range BenchScenarios() {
		b.Run(sc.Name, func(b *testing.B) {
			inv := sc.Inventory()
			exprs, err := firstOperationSelectors(sc, inv)
			if err != nil {
				b.Fatal(err)
			}
			b.Run("drakit", func(b *testing.B) {
				compile := drakitCompiler(inv.Features)
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					for _, e := range exprs {
						if err := compile(e); err != nil {
							b.Fatalf("%s: %q: %v", sc.Name, e, err)
						}
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*sc.ClaimsPerOp), "ns/claim")
				b.ReportMetric(float64(len(exprs)), "exprs")
				b.ReportMetric(float64(simpleSelectors(inv.Features, exprs)), "simple")
			})
			b.Run("upstream", func(b *testing.B) {
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					cache := newCELCache(inv.Features)
					for _, e := range exprs {
						if r := cache.GetOrCompile(e); r.Error != nil {
							b.Fatalf("%s: %q: %v", sc.Name, e, r.Error)
						}
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*sc.ClaimsPerOp), "ns/claim")
				b.ReportMetric(float64(len(exprs)), "exprs")
			})
		})
	}
}

// drakitCompiler compiles a selector the way drakit's Allocator compiles
// one for the features: with the zero Features (1.31's allocator) in 1.31's
// environment of stored expressions, otherwise in the environment of
// stored expressions of the release drakit follows, without the cost
// estimate.
func drakitCompiler(f allocator.Features) func(string) error {
	opts := drakitcel.Options{Stored: true, SkipCostEstimate: true}
	if f == (allocator.Features{}) {
		opts = drakitcel.Options{Release: 31, Stored: true}
	}
	return func(e string) error {
		_, err := drakitcel.Compile(e, opts)
		return err
	}
}

// claimCollector passes calls on and remembers every claim asked about.
type claimCollector struct {
	Runner
	seen   map[*resource.ResourceClaim]bool
	claims []*resource.ResourceClaim
}

func (c *claimCollector) Allocate(ctx context.Context, node *corev1.Node, claims []*Claim) (bool, []*resource.AllocationResult, error) {
	for _, cl := range claims {
		if !c.seen[cl.Hub] {
			c.seen[cl.Hub] = true
			c.claims = append(c.claims, cl.Hub)
		}
	}
	return c.Runner.Allocate(ctx, node, claims)
}

// firstOperationSelectors runs operation 0 of the scenario with drakit to
// learn its claims and lists the distinct selector expressions of their
// requests and of the classes those name, in order of first use.
func firstOperationSelectors(sc BenchScenario, inv *Inventory) ([]string, error) {
	r, err := NewDrakitRunner(inv)
	if err != nil {
		return nil, err
	}
	col := &claimCollector{Runner: r, seen: map[*resource.ResourceClaim]bool{}}
	if _, err := sc.Op(context.Background(), col, inv, 0); err != nil && !sc.Impossible {
		return nil, err
	}
	r.Reset()
	classes := map[string]*resource.DeviceClass{}
	for _, c := range inv.Classes {
		classes[c.Name] = c
	}
	var out []string
	seen := map[string]bool{}
	add := func(sels []resource.DeviceSelector) {
		for _, s := range sels {
			if s.CEL != nil && !seen[s.CEL.Expression] {
				seen[s.CEL.Expression] = true
				out = append(out, s.CEL.Expression)
			}
		}
	}
	use := func(class string, sels []resource.DeviceSelector) {
		if c := classes[class]; c != nil {
			add(c.Spec.Selectors)
		}
		add(sels)
	}
	for _, c := range col.claims {
		for _, req := range c.Spec.Devices.Requests {
			if req.Exactly != nil {
				use(req.Exactly.DeviceClassName, req.Exactly.Selectors)
			}
			for _, sub := range req.FirstAvailable {
				use(sub.DeviceClassName, sub.Selectors)
			}
		}
	}
	return out, nil
}

// simpleSelectors counts the expressions a drakit Allocator with the
// features judges without compiling them (cel.Options.FastPath): those a
// fast-path Compile leaves uncompiled.
func simpleSelectors(f allocator.Features, exprs []string) int {
	opts := drakitcel.Options{Stored: true, FastPath: true}
	if f == (allocator.Features{}) {
		opts.Release = 31
	}
	n := 0
	for _, e := range exprs {
		if p, err := drakitcel.Compile(e, opts); err == nil && !p.Compiled() {
			n++
		}
	}
	return n
}
