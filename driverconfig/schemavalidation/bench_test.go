package schemavalidation

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	admissionv1 "k8s.io/api/admission/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	runtimepkg "k8s.io/apimachinery/pkg/runtime"

	"github.com/drakit/drakit/driverconfig"
	"github.com/drakit/drakit/driverconfig/admission"
)

// claimWith4Configs is a v1 claim with four configs of the example
// driver, each with a CEL rule, a default and a list to check.
func claimWith4Configs() []byte {
	var cfgs []string
	for i := 0; i < 4; i++ {
		cfgs = append(cfgs, fmt.Sprintf(`{"requests":["gpu-%d"],"opaque":{"driver":"gpu.example.com","parameters":{"apiVersion":"gpu.example.com/v1","kind":"GpuConfig","sharing":{"strategy":"TimeSlicing","replicas":%d},"devices":["a","b","c"]}}}`, i, i+1))
	}
	var reqs []string
	for i := 0; i < 4; i++ {
		reqs = append(reqs, fmt.Sprintf(`{"name":"gpu-%d","exactly":{"deviceClassName":"gpu.example.com"}}`, i))
	}
	return []byte(`{"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","metadata":{"name":"gpu","namespace":"default"},"spec":{"devices":{"requests":[` + strings.Join(reqs, ",") + `],"config":[` + strings.Join(cfgs, ",") + `]}}}`)
}

func reviewHandler(b testing.TB) *admission.Handler {
	v, err := Load("testdata/gpu-schemas.yaml")
	if err != nil {
		b.Fatal(err)
	}
	reg := driverconfig.NewRegistry()
	if err := v.Register(reg); err != nil {
		b.Fatal(err)
	}
	return admission.NewHandler(reg)
}

func request(obj []byte) *admissionv1.AdmissionRequest {
	return &admissionv1.AdmissionRequest{
		UID:       "u",
		Kind:      metav1.GroupVersionKind{Group: "resource.k8s.io", Version: "v1", Kind: "ResourceClaim"},
		Resource:  metav1.GroupVersionResource{Group: "resource.k8s.io", Version: "v1", Resource: "resourceclaims"},
		Name:      "gpu",
		Namespace: "default",
		Operation: admissionv1.Create,
		Object:    runtimepkg.RawExtension{Raw: obj},
	}
}

// BenchmarkReview is one admission review of a claim with four configs
// through the driverconfig handler with the schema validator: what
// "drakit webhook serve" does per request, without HTTP and TLS.
func BenchmarkReview(b *testing.B) {
	h := reviewHandler(b)
	req := request(claimWith4Configs())
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if resp := h.Review(ctx, req); !resp.Allowed {
			b.Fatalf("refused: %v", resp.Result)
		}
	}
}

// TestReviewLoad measures reviews per second, their p99 latency and the
// heap over many reviews (DRAKIT_SCHEMA_LOAD=N reviews, default off: it
// is a measurement, not a unit test). It fails below 2,000 reviews/s on
// GOMAXPROCS cores, a p99 at or above 5 ms, or a heap that grows by more
// than 16 MiB from the first tenth of the run to the end.
func TestReviewLoad(t *testing.T) {
	var n int
	if _, err := fmt.Sscan(getenv("DRAKIT_SCHEMA_LOAD"), &n); err != nil || n <= 0 {
		t.Skip("set DRAKIT_SCHEMA_LOAD=100000 to measure")
	}
	h := reviewHandler(t)
	obj := claimWith4Configs()
	workers := runtime.GOMAXPROCS(0)
	lat := make([][]time.Duration, workers)
	heapAt := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	var heapEarly uint64
	cpuStart := cpuTime()
	start := time.Now()
	done := make(chan struct{})
	per := n / workers
	for w := 0; w < workers; w++ {
		go func(w int) {
			defer func() { done <- struct{}{} }()
			req := request(obj)
			ctx := context.Background()
			for i := 0; i < per; i++ {
				t0 := time.Now()
				resp := h.Review(ctx, req)
				lat[w] = append(lat[w], time.Since(t0))
				if !resp.Allowed {
					b, _ := json.Marshal(resp.Result)
					panic(string(b))
				}
			}
		}(w)
	}
	go func() {
		time.Sleep(time.Duration(float64(time.Second) * float64(n) / 20000))
		heapEarly = heapAt()
	}()
	for w := 0; w < workers; w++ {
		<-done
	}
	elapsed := time.Since(start)
	cpu := cpuTime() - cpuStart
	heapEnd := heapAt()
	var all []time.Duration
	for _, l := range lat {
		all = append(all, l...)
	}
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	p50, p99 := all[len(all)/2], all[len(all)*99/100]
	rate := float64(len(all)) / elapsed.Seconds()
	perReview := cpu / time.Duration(len(all))
	t.Logf("%d reviews on %d cores in %v: %.0f reviews/s, p50 %v, p99 %v, heap %d KiB after the first part, %d KiB at the end; CPU %v per review (%.0f reviews/s on %d idle cores)",
		len(all), workers, elapsed.Round(time.Millisecond), rate, p50, p99, heapEarly>>10, heapEnd>>10, perReview, float64(workers)*float64(time.Second)/float64(perReview), workers)
	if rate < 2000 || p99 >= 5*time.Millisecond {
		t.Errorf("want at least 2000 reviews/s and p99 under 5ms")
	}
	if heapEarly > 0 && heapEnd > heapEarly+16<<20 {
		t.Errorf("heap grew from %d KiB to %d KiB", heapEarly>>10, heapEnd>>10)
	}
}

// FuzzValidate: any parameters, however malformed, give errors or none,
// never a panic.
func FuzzValidate(f *testing.F) {
	v, err := Load("testdata/gpu-schemas.yaml")
	if err != nil {
		f.Fatal(err)
	}
	for _, seed := range []string{
		`{"apiVersion":"gpu.example.com/v1","kind":"GpuConfig","sharing":{"strategy":"TimeSlicing","replicas":4},"devices":["a"]}`,
		`{"apiVersion":"gpu.example.com/v1","kind":"GpuConfig","sharing":{"replicas":"x"},"devices":[1,{}]}`,
		`{"apiVersion":"compute-domain.example.com/v1beta1","kind":"ChannelConfig","domainID":null}`,
		`[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]`, `"\xff"`, `{"apiVersion":1}`, ``, `null`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		_ = v.Validate(context.Background(), "gpu.example.com", raw, paramsPath)
	})
}

func getenv(k string) string { return os.Getenv(k) }

// cpuTime is the process's user and system CPU time so far: on a machine
// shared with other work, wall time measures the others too.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
