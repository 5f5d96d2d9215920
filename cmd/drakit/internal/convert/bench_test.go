package convert

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"runtime"
	"runtime/metrics"
	"testing"

	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"

	"github.com/drakit/drakit/cmd/drakit/internal/manifest"
	"github.com/drakit/drakit/cmd/drakit/internal/printer"
	"github.com/drakit/drakit/conversion"
)

// claimStream generates a YAML stream of n ResourceClaims, a third each
// of v1alpha1, v1alpha2 and v1alpha3, shaped like the claims in examples/.
func claimStream(n int) []byte {
	data, _ := io.ReadAll(&claimReader{n: n})
	return data
}

// claimReader produces the stream of claimStream document by document, so
// that a benchmark measuring memory does not hold the whole input.
type claimReader struct {
	n, i int
	buf  bytes.Buffer
}

func (r *claimReader) Read(p []byte) (int, error) {
	for r.buf.Len() == 0 {
		if r.i == r.n {
			return 0, io.EOF
		}
		writeClaim(&r.buf, r.i)
		r.i++
	}
	return r.buf.Read(p)
}

func writeClaim(b *bytes.Buffer, i int) {
	if i > 0 {
		b.WriteString("---\n")
	}
	switch i % 3 {
	case 0:
		fmt.Fprintf(b, `# claim %d
apiVersion: resource.k8s.io/v1alpha1
kind: ResourceClaim
metadata:
  name: claim-%d
  namespace: ml-training
  labels:
    app.kubernetes.io/part-of: notebooks
spec:
  resourceClassName: gpu.example.com
  allocationMode: Immediate
  parametersRef:
    apiGroup: gpu.example.com
    kind: GpuClaimParameters
    name: time-sliced
`, i, i)
	case 1:
		fmt.Fprintf(b, `apiVersion: resource.k8s.io/v1alpha2
kind: ResourceClaim
metadata:
  name: claim-%d
  namespace: ml-training
spec:
  resourceClassName: gpu.example.com
status:
  driverName: gpu.example.com
  allocation:
    resourceHandles:
    - driverName: gpu.example.com
      structuredData:
        nodeName: node-a
        results:
        - namedResources:
            name: gpu-0
    availableOnNodes:
      nodeSelectorTerms:
      - matchFields:
        - key: metadata.name
          operator: In
          values:
          - node-a
  reservedFor:
  - resource: pods
    name: trainer-%d
    uid: 0b5e2c1a-7d3f-4e8b-9c6a-1f2d3e4a5b6c
`, i, i)
	case 2:
		fmt.Fprintf(b, `apiVersion: resource.k8s.io/v1alpha3
kind: ResourceClaim
metadata:
  name: claim-%d
  namespace: ml-training
spec:
  devices:
    requests:
    - name: gpus
      deviceClassName: gpu.example.com
      allocationMode: ExactCount
      count: 2
      selectors:
      - cel:
          expression: device.attributes["gpu.example.com"].model == "H100"
    constraints:
    - requests:
      - gpus
      matchAttribute: gpu.example.com/numaNode
    config:
    - requests:
      - gpus
      opaque:
        driver: gpu.example.com
        parameters:
          apiVersion: gpu.example.com/v1alpha1
          kind: GpuConfig
          sharing:
            strategy: MPS
`, i)
	}
}

// convertStream is what `drakit convert` does with one input, minus the
// file handling: it must not fail on the generated stream.
func convertStream(tb testing.TB, stream io.Reader, target string, out io.Writer) Stats {
	gv := conversion.Versions[len(conversion.Versions)-1]
	for _, v := range conversion.Versions {
		if v.Version == target {
			gv = v
		}
	}
	c := &Converter{Options: Options{Target: gv, Strict: true}, Report: func(e *manifest.Error, warning bool) {
		tb.Fatalf("unexpected problem: %v", e)
	}}
	bw := bufio.NewWriterSize(out, 64<<10)
	st, err := c.Stream(printer.NewStream(bw, printer.YAML), manifest.NewReader(stream, "stream.yaml"))
	if err != nil {
		tb.Fatal(err)
	}
	if err := bw.Flush(); err != nil {
		tb.Fatal(err)
	}
	return st
}

// yamlBaseline is the bare decode and encode of every document of the
// stream with sigs.k8s.io/yaml, split as kubectl splits streams.
func yamlBaseline(tb testing.TB, stream []byte, out io.Writer) {
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(stream)))
	bw := bufio.NewWriterSize(out, 64<<10)
	for {
		doc, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			tb.Fatal(err)
		}
		var obj map[string]any
		if err := yaml.Unmarshal(doc, &obj); err != nil {
			tb.Fatal(err)
		}
		data, err := yaml.Marshal(obj)
		if err != nil {
			tb.Fatal(err)
		}
		bw.WriteString("---\n")
		bw.Write(data)
	}
	if err := bw.Flush(); err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkConvertStream converts a 10,000-document stream of claims of
// every version to v1alpha3, side by side with a bare sigs.k8s.io/yaml
// decode and encode of the same stream. The target is drakit ≤ 1.3× the
// baseline's time:
//
//	go test ./cmd/drakit/internal/convert -run '^$' -bench 'ConvertStream$' -benchmem -count 6
func BenchmarkConvertStream(b *testing.B) {
	stream := claimStream(10000)
	b.Run("drakit", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(stream)))
		for i := 0; i < b.N; i++ {
			convertStream(b, bytes.NewReader(stream), "v1alpha3", io.Discard)
		}
	})
	b.Run("yaml-baseline", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(stream)))
		for i := 0; i < b.N; i++ {
			yamlBaseline(b, stream, io.Discard)
		}
	})
}

// BenchmarkConvertStreamMemory shows that converting does not hold on to
// documents: the input is generated as it is read and the output
// discarded, and the peak of the heap (peak-heap-B, sampled at every write
// of the output) is the same for 1,000 and 10,000 documents, while B/op
// grows with the work done.
//
//	go test ./cmd/drakit/internal/convert -run '^$' -bench 'ConvertStreamMemory' -benchmem
func BenchmarkConvertStreamMemory(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("docs=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			var peak uint64
			for i := 0; i < b.N; i++ {
				runtime.GC()
				w := &heapSampler{}
				convertStream(b, &claimReader{n: n}, "v1alpha3", w)
				if w.peak > peak {
					peak = w.peak
				}
			}
			b.ReportMetric(float64(peak), "peak-heap-B")
		})
	}
}

// heapSampler is an output that samples the heap at every write.
type heapSampler struct {
	peak   uint64
	sample [1]metrics.Sample
}

func (h *heapSampler) Write(p []byte) (int, error) {
	h.sample[0].Name = "/memory/classes/heap/objects:bytes"
	metrics.Read(h.sample[:])
	if v := h.sample[0].Value.Uint64(); v > h.peak {
		h.peak = v
	}
	return len(p), nil
}
