package allocbench

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/drakit/drakit/allocator"
)

// BenchmarkPods times the whole scheduling of a synthetic cluster of each
// shape (ALLOCBENCH_PODS_NODES nodes x 8 GPUs, default 5,000, and
// ALLOCBENCH_PODS_PODS pending pods from templates, default 10,000):
// one-model (SyntheticCluster: one GPU model per node, six templates,
// zone selectors and priorities) and two-models (TwoModelCluster: two
// models per node, one per NUMA node, and twelve templates interleaved,
// every pod placeable):
//
//	BenchmarkPods/<shape>/<nodes>x8/drakit    the drakit binary, built
//	    from this checkout, run as a subprocess: `drakit allocate -f
//	    cluster.yaml -o wide`, reading the YAML included; wall-s is its
//	    wall time, cpu-s its CPU time (user and system; on a busy machine
//	    wall-s grows, cpu-s hardly), maxrss-MB its peak resident memory
//	    (rusage);
//	BenchmarkPods/<shape>/<nodes>x8/upstream  the same loop with
//	    upstream's allocator (the implementation a 1.37 scheduler picks
//	    for the default gates): for each pod, in queue order, an allocator
//	    made from the allocated state of the moment, asked node after node
//	    in the same order until one fits. Upstream's loop over every pod
//	    takes hours at this size, so it runs on every
//	    ALLOCBENCH_PODS_SAMPLE-th pod of the queue (default 100), each with
//	    exactly the state drakit's placement had before that pod; est-s is
//	    the sampled time scaled to all pods (ns/op means nothing here),
//	    and every sampled pod must land on the node drakit chose, or on
//	    none when drakit found none. ratio is drakit's wall-s over est-s
//	    (when the drakit benchmark ran first in the same process).
//
// Select a shape or a side with -bench (BenchmarkPods/two-models/.*/drakit).
func BenchmarkPods(b *testing.B) {
	spec := ClusterSpec{Nodes: envInt("ALLOCBENCH_PODS_NODES", 5000), GPUsPerNode: 8, Pods: envInt("ALLOCBENCH_PODS_PODS", 10000)}
	// The binary is built once, in the outer benchmark's directory, which
	// outlives the shapes'.
	binDir, bin := b.TempDir(), ""
	for _, shape := range clusterShapes {
		b.Run(shape.name, func(b *testing.B) {
			c := shape.make(spec)
			dir := b.TempDir()
			file := filepath.Join(dir, "cluster.yaml")
			if err := writeClusterFile(c, file); err != nil {
				b.Fatal(err)
			}
			var drakitWall float64
			b.Run(fmt.Sprintf("%dx%d/drakit", spec.Nodes, spec.GPUsPerNode), func(b *testing.B) {
				if bin == "" {
					bin = buildDrakit(b, binDir)
				}
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					run := runDrakitBinary(b, bin, file)
					drakitWall = run.wall.Seconds()
					b.ReportMetric(run.wall.Seconds(), "wall-s")
					b.ReportMetric(run.cpu.Seconds(), "cpu-s")
					b.ReportMetric(float64(run.maxRSS)/1024, "maxrss-MB")
				}
			})
			b.Run(fmt.Sprintf("%dx%d/upstream", spec.Nodes, spec.GPUsPerNode), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					est := sampledUpstream(b, c, envInt("ALLOCBENCH_PODS_SAMPLE", 100))
					b.ReportMetric(est.Seconds(), "est-s")
					if drakitWall > 0 {
						b.ReportMetric(drakitWall/est.Seconds(), "ratio")
					}
				}
			})
		})
	}
}

func writeClusterFile(c *Cluster, file string) error {
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	if err := c.WriteYAML(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// buildDrakit builds the drakit command of this checkout.
func buildDrakit(b *testing.B, dir string) string {
	b.Helper()
	bin := filepath.Join(dir, "drakit")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/drakit")
	cmd.Dir = filepath.Join("..", "..")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("building drakit: %v\n%s", err, out)
	}
	return bin
}

// drakitRun is what one run of the binary took: wall time, CPU time (user
// and system, all threads) and peak RSS in KiB.
type drakitRun struct {
	wall, cpu time.Duration
	maxRSS    int64
}

// runDrakitBinary runs `drakit allocate -f file -o wide`. Exit code 1 is
// expected: some pods fit nowhere.
func runDrakitBinary(b *testing.B, bin, file string) drakitRun {
	b.Helper()
	cmd := exec.Command(bin, "allocate", "-f", file, "-o", "wide")
	cmd.Stdout, cmd.Stderr = nil, nil
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != 1) {
		b.Fatalf("drakit allocate: %v", err)
	}
	run := drakitRun{wall: wall, cpu: cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		run.maxRSS = ru.Maxrss
	}
	return run
}

// sampledUpstream runs upstream's scheduling cycle for every sample-th pod
// of the queue with the allocated state drakit's placement had before it,
// checks that it picks drakit's node, and returns the time scaled to all
// pods.
func sampledUpstream(b *testing.B, c *Cluster, sample int) time.Duration {
	b.Helper()
	b.StopTimer()
	defer b.StartTimer()
	cmp, err := compareLoops(context.Background(), c, allocator.DefaultFeatures(), sample)
	if err != nil {
		b.Fatal(err)
	}
	for _, m := range cmp.mismatches {
		b.Error(m)
	}
	b.ReportMetric(float64(cmp.sampled), "sampled-pods")
	return cmp.spent * time.Duration(len(c.Pods)) / time.Duration(max(cmp.sampled, 1))
}
