package admission

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	admissionv1 "k8s.io/api/admission/v1"
)

// benchReview is the review of the benchmarks: a v1 claim with four
// configs, three of them the driver's (one under its second name) and
// all valid, so that every config is decoded and validated.
func benchReview() []byte {
	return review(admissionv1.Create, "v1", "ResourceClaim", object("v1", "ResourceClaim", goodParams, goodParams), "")
}

// latencies collects the duration of each review, from every goroutine.
type latencies struct {
	mu  sync.Mutex
	all []time.Duration
}

func (l *latencies) add(d []time.Duration) {
	l.mu.Lock()
	l.all = append(l.all, d...)
	l.mu.Unlock()
}

// report adds reviews/s, p50 and p99 to the benchmark's output.
func (l *latencies) report(b *testing.B, elapsed time.Duration) {
	if len(l.all) == 0 {
		return
	}
	slices.Sort(l.all)
	pct := func(p float64) float64 {
		return float64(l.all[int(float64(len(l.all)-1)*p)].Microseconds()) / 1000
	}
	b.ReportMetric(float64(len(l.all))/elapsed.Seconds(), "reviews/s")
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
}

// BenchmarkHandler answers reviews in process, from as many goroutines as
// GOMAXPROCS (-cpu 2 for two cores):
//
//	go test -run '^$' -bench 'BenchmarkHandler$' -cpu 2 -benchtime 20000x ./driverconfig/admission/
func BenchmarkHandler(b *testing.B) {
	h := testHandler(b)
	body := benchReview()
	if _, resp, out := post(b, h, body); resp == nil || !resp.Allowed {
		b.Fatalf("the benchmark's review is not allowed: %s", out)
	}
	var lat latencies
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		var mine []time.Duration
		for pb.Next() {
			t0 := time.Now()
			req := httptest.NewRequest(http.MethodPost, "/validate", bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != http.StatusOK {
				b.Errorf("status %d", rec.Code)
				return
			}
			mine = append(mine, time.Since(t0))
		}
		lat.add(mine)
	})
	elapsed := time.Since(start)
	b.StopTimer()
	lat.report(b, elapsed)
	lat.all = nil
	runtime.GC()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(int64(after.HeapAlloc)-int64(before.HeapAlloc))/1024, "heap-growth-KiB")
}

// BenchmarkHandlerHTTPS is the same over HTTPS on loopback through
// NewServer, with keep-alive connections as the API server keeps them;
// the clients run on the same cores as the server:
//
//	go test -run '^$' -bench 'BenchmarkHandlerHTTPS$' -cpu 2 -benchtime 20000x ./driverconfig/admission/
func BenchmarkHandlerHTTPS(b *testing.B) {
	url, client, stop := httpsServer(b, nil)
	defer stop()
	body := benchReview()
	var lat latencies
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		var mine []time.Duration
		for pb.Next() {
			t0 := time.Now()
			resp, err := client.Post(url, "application/json", bytes.NewReader(body))
			if err != nil {
				b.Error(err)
				return
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			_ = resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				b.Errorf("status %d", resp.StatusCode)
				return
			}
			mine = append(mine, time.Since(t0))
		}
		lat.add(mine)
	})
	elapsed := time.Since(start)
	b.StopTimer()
	lat.report(b, elapsed)
}

// BenchmarkHandlerHTTPSPaced offers reviews at a fixed rate over HTTPS
// (2,000 per second, the webhook's target load; DRAKIT_ADMISSION_RATE sets
// another) from 16 keep-alive connections, and reports the latency of
// each from the moment it was due, not from when it was sent, so that a
// stalled server counts against it (no coordinated omission):
//
//	go test -run '^$' -bench 'BenchmarkHandlerHTTPSPaced$' -cpu 2 -benchtime 20000x ./driverconfig/admission/
func BenchmarkHandlerHTTPSPaced(b *testing.B) {
	rate := 2000.0
	if v := os.Getenv("DRAKIT_ADMISSION_RATE"); v != "" {
		if _, err := fmt.Sscan(v, &rate); err != nil || rate <= 0 {
			b.Fatalf("DRAKIT_ADMISSION_RATE=%q is not a positive number", v)
		}
	}
	var server latencies
	url, client, stop := httpsServer(b, &server)
	defer stop()
	body := benchReview()
	const workers = 16
	interval := time.Duration(float64(time.Second) / rate)
	var lat, sent2 latencies
	var next sync.Mutex
	sent := 0
	b.ResetTimer()
	start := time.Now()
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine, service []time.Duration
			defer func() { lat.add(mine); sent2.add(service) }()
			for {
				next.Lock()
				i := sent
				sent++
				next.Unlock()
				if i >= b.N {
					return
				}
				due := start.Add(time.Duration(i) * interval)
				time.Sleep(time.Until(due))
				sentAt := time.Now()
				resp, err := client.Post(url, "application/json", bytes.NewReader(body))
				if err != nil {
					b.Error(err)
					return
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				_ = resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					b.Errorf("status %d", resp.StatusCode)
					return
				}
				mine = append(mine, time.Since(due))
				service = append(service, time.Since(sentAt))
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	lat.report(b, elapsed)
	// The same from the moment each review was sent: what the server
	// and the client's own scheduling add, without the sleep's overshoot
	// and the backlog.
	slices.Sort(sent2.all)
	if n := len(sent2.all); n > 0 {
		b.ReportMetric(float64(sent2.all[(n-1)*99/100].Microseconds())/1000, "p99-from-send-ms")
	}
	// And in the server, from ServeHTTP's start to its end: the
	// handler's own latency.
	slices.Sort(server.all)
	if n := len(server.all); n > 0 {
		b.ReportMetric(float64(server.all[(n-1)*99/100].Microseconds())/1000, "p99-in-server-ms")
	}
}

// httpsServer serves testHandler over HTTPS on loopback through
// NewServer and returns its URL, a client that trusts it, and a stop
// function. If timed is not nil, it gets the time each ServeHTTP took.
func httpsServer(b *testing.B, timed *latencies) (string, *http.Client, func()) {
	dir := b.TempDir()
	certFile, keyFile := filepath.Join(dir, "tls.crt"), filepath.Join(dir, "tls.key")
	cert := writePairB(b, certFile, keyFile)
	var h http.Handler = testHandler(b)
	if timed != nil {
		inner := h
		h = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			t0 := time.Now()
			inner.ServeHTTP(w, r)
			timed.add([]time.Duration{time.Since(t0)})
		})
	}
	srv, err := NewServer("127.0.0.1:0", h, certFile, keyFile)
	if err != nil {
		b.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	go func() { _ = srv.ServeTLS(ln, "", "") }()
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}, MaxIdleConnsPerHost: 64}}
	return "https://" + ln.Addr().String() + "/validate", client, func() { _ = srv.Shutdown(context.Background()) }
}

// writePairB is writePair for a benchmark.
func writePairB(b *testing.B, certFile, keyFile string) *x509.Certificate {
	t := &testing.T{}
	cert := writePair(t, certFile, keyFile, 1)
	if t.Failed() || cert == nil {
		b.Fatal("writing the certificate failed")
	}
	return cert
}

// TestHandlerMemoryFlat answers 100,000 reviews and fails if the heap,
// after a garbage collection, grew by more than 4 MiB between the first
// 10,000 and the end: nothing is kept per review. It takes some seconds,
// so it runs only with DRAKIT_ADMISSION_SOAK=1:
//
//	DRAKIT_ADMISSION_SOAK=1 go test -run TestHandlerMemoryFlat -v ./driverconfig/admission/
func TestHandlerMemoryFlat(t *testing.T) {
	if os.Getenv("DRAKIT_ADMISSION_SOAK") == "" {
		t.Skip("set DRAKIT_ADMISSION_SOAK=1 to answer 100,000 reviews")
	}
	h := testHandler(t)
	good := benchReview()
	bad := review(admissionv1.Create, "v1", "ResourceClaim", object("v1", "ResourceClaim", badParams, invalidValue), "")
	heap := func() uint64 {
		var m runtime.MemStats
		runtime.GC()
		runtime.GC()
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	const total, warm = 100000, 10000
	var base uint64
	for i := 1; i <= total; i++ {
		body := good
		if i%2 == 0 {
			body = bad
		}
		req := httptest.NewRequest(http.MethodPost, "/validate", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			t.Fatalf("review %d: status %d", i, rec.Code)
		}
		if i == warm {
			base = heap()
		}
		if i%25000 == 0 {
			t.Logf("%d reviews: heap %s", i, mib(heap()))
		}
	}
	end := heap()
	t.Logf("heap after %d reviews %s, after %d %s", warm, mib(base), total, mib(end))
	if end > base+4<<20 {
		t.Errorf("the heap grew by %s over %d reviews", mib(end-base), total-warm)
	}
}

func mib(n uint64) string { return fmt.Sprintf("%.2f MiB", float64(n)/(1<<20)) }
