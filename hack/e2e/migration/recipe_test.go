package migration

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// startRun starts a run of the migration: a run ID with the prefix, which
// is also the namespace made on every server, the fixture created on the
// 1.30 server, and a cleanup that deletes the run's objects from all three.
// It returns the run ID and the fixture by kind.
func startRun(t *testing.T, s servers, prefix string) (run string, objs map[string][]*unstructured.Unstructured) {
	t.Helper()
	run = runID(prefix)
	s.namespace(t, run)
	t.Cleanup(func() {
		deleteRun(t, s.from, "v1alpha2", run, toV1alpha2)
		deleteRun(t, s.to, "v1", run, toV1)
		deleteRun(t, s.back, "v1alpha2", run, toV1alpha2)
	})
	objs = fixture(t, run, run)
	for _, k := range toV1alpha2 {
		create(t, s.from, "v1alpha2", k, objs[k.v1alpha2])
	}
	return run, objs
}

// TestRecipe runs docs/migration.md step by step, with files as kubectl
// writes them and the drakit binary.
func TestRecipe(t *testing.T) {
	s := getServers(t)
	drakit := drakitBinary(t)
	dir := t.TempDir()
	for _, d := range []string{"1.30", "1.37", "1.37-export", "back"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	path := func(d, resource string) string { return filepath.Join(dir, d, resource+".yaml") }

	// The 1.30 cluster as it was.
	run, objs := startRun(t, s, "m")

	// Step 1, before the upgrade: export every kind, status included.
	originals := map[string][]*unstructured.Unstructured{}
	for _, k := range toV1alpha2 {
		data := export(t, s.from, "v1alpha2", k.v1alpha2, run)
		write(t, path("1.30", k.v1alpha2), data)
		originals[k.v1alpha2] = items(t, k.v1alpha2, data)
		if len(originals[k.v1alpha2]) != len(objs[k.v1alpha2]) {
			t.Fatalf("the export of %s has %s, want the %d objects created", k.v1alpha2, names(originals[k.v1alpha2]), len(objs[k.v1alpha2]))
		}
	}

	// Step 2: convert to v1 for kubectl create.
	for _, k := range toV1 {
		out := runDrakit(t, drakit, 0, "convert", "-f", path("1.30", k.v1alpha2), "--output-version", "resource.k8s.io/v1", "--for-create")
		write(t, path("1.37", k.v1), []byte(out.stdout))
	}
	// The kinds v1 cannot hold: converting them fails, naming the kind,
	// and --skip-kinds-not-in-target leaves every object out. Their 1.30
	// export is what the way back creates.
	for _, k := range keptAside {
		out := runDrakit(t, drakit, 1, "convert", "-f", path("1.30", k.v1alpha2), "--output-version", "resource.k8s.io/v1", "--for-create")
		if want := "kind " + kindOf(k.v1alpha2) + " does not exist in v1"; !strings.Contains(out.stderr, want) {
			t.Errorf("drakit convert of %s to v1: stderr %q does not say %q", k.v1alpha2, out.stderr, want)
		}
		out = runDrakit(t, drakit, 0, "convert", "-f", path("1.30", k.v1alpha2), "--output-version", "resource.k8s.io/v1", "--for-create", "--skip-kinds-not-in-target")
		if left := items(t, k.v1alpha2+" converted with --skip-kinds-not-in-target", []byte(out.stdout)); len(left) != 0 {
			t.Errorf("drakit convert --skip-kinds-not-in-target of %s to v1 kept %s", k.v1alpha2, names(left))
		}
		if n := strings.Count(out.stderr, "left out of the List"); n != len(originals[k.v1alpha2]) {
			t.Errorf("drakit convert --skip-kinds-not-in-target of %s: %d warnings, want one per object:\n%s", k.v1alpha2, n, out.stderr)
		}
	}

	// Step 3: validate with 1.37's rules. The default gates refuse the
	// list-valued attributes a 1.30 slice may have (intSlice, stringSlice:
	// DRAListTypeAttributes, alpha in 1.37, which the test server has on),
	// and nothing else.
	out := runDrakit(t, drakit, 1, "validate", "-f", filepath.Join(dir, "1.37"), "-R", "--as-version", "resource.k8s.io/v1")
	for _, want := range []string{`ResourceSlice.resource.k8s.io "` + run + `-node-a-gpu" is invalid`, "attributes[numa]", "attributes[links]", "1 invalid"} {
		if !strings.Contains(out.stdout+out.stderr, want) {
			t.Errorf("drakit validate --as-version resource.k8s.io/v1 does not say %q:\n%s%s", want, out.stdout, out.stderr)
		}
	}
	if n := strings.Count(out.stdout, " is invalid"); n != 1 {
		t.Errorf("drakit validate: %d invalid objects, want only the slice with list attributes:\n%s", n, []byte(out.stdout))
	}

	// Step 4: create on 1.37, in the recipe's order, status through the
	// status subresource; then read everything back.
	created := map[string][]*unstructured.Unstructured{}
	for _, k := range toV1 {
		created[k.v1] = items(t, path("1.37", k.v1), read(t, path("1.37", k.v1)))
		create(t, s.to, "v1", k, created[k.v1])
	}
	for _, k := range toV1 {
		data := export(t, s.to, "v1", k.v1, run)
		write(t, path("1.37-export", k.v1), data)
		// 1.37 keeps every field drakit wrote, the stash annotation
		// among them.
		sameObjects(t, "1.37 read back "+k.v1, created[k.v1], items(t, k.v1, data))
	}
	checkOnTarget(t, created["resourceclaims"], run)

	// Step 5, the way back: convert the 1.37 export to v1alpha2, make the
	// kept-aside 1.30 export creatable again, create on a fresh 1.30
	// server.
	back := map[string][]*unstructured.Unstructured{}
	for _, k := range toV1 {
		out := runDrakit(t, drakit, 0, "convert", "-f", path("1.37-export", k.v1), "--output-version", "resource.k8s.io/v1alpha2", "--for-create")
		write(t, path("back", k.v1alpha2), []byte(out.stdout))
	}
	for _, k := range keptAside {
		out := runDrakit(t, drakit, 0, "convert", "-f", path("1.30", k.v1alpha2), "--output-version", "resource.k8s.io/v1alpha2", "--for-create")
		write(t, path("back", k.v1alpha2), []byte(out.stdout))
	}
	// What 1.30 will say about them, before creating.
	runDrakit(t, drakit, 0, "validate", "-f", filepath.Join(dir, "back"), "-R")
	for _, k := range toV1alpha2 {
		back[k.v1alpha2] = items(t, path("back", k.v1alpha2), read(t, path("back", k.v1alpha2)))
		for _, o := range back[k.v1alpha2] {
			if _, ok := o.GetAnnotations()["conversion.drakit.io/stash"]; ok {
				t.Errorf("back in v1alpha2, %s %s still has a stash annotation", o.GetKind(), key(o))
			}
			if o.GetResourceVersion() != "" || o.GetUID() != "" {
				t.Errorf("drakit convert --for-create left server metadata on %s %s", o.GetKind(), key(o))
			}
		}
		create(t, s.back, "v1alpha2", k, back[k.v1alpha2])
	}

	// The fresh 1.30 cluster holds what the first one held.
	for _, k := range toV1alpha2 {
		got := items(t, k.v1alpha2, export(t, s.back, "v1alpha2", k.v1alpha2, run))
		sameObjects(t, "back on a fresh 1.30: "+k.v1alpha2, originals[k.v1alpha2], got)
	}
}

// checkOnTarget proves what docs/migration.md says a 1.37 cluster makes of
// the claims: structured allocations are v1 device results the 1.37
// scheduler understands; a classic allocation has none (nothing 1.37 can
// act on), and the claim's classic parameters live on only in the stash.
func checkOnTarget(t *testing.T, claims []*unstructured.Unstructured, run string) {
	t.Helper()
	byName := map[string]*unstructured.Unstructured{}
	for _, c := range claims {
		byName[c.GetName()] = c
	}
	results := func(name string) []any {
		r, _, _ := unstructured.NestedSlice(byName[name].Object, "status", "allocation", "devices", "results")
		return r
	}
	want := []any{map[string]any{"request": "resource", "driver": "gpu.example.com", "pool": run + "-node-a", "device": "gpu-0"}}
	if d := cmp.Diff(want, results("allocated")); d != "" {
		t.Errorf("claim allocated: v1 results (-want +got):\n%s", d)
	}
	if r := results("classic"); len(r) != 0 {
		t.Errorf("claim classic: a classic allocation has no v1 results, got %v", r)
	}
	for _, name := range []string{"classic", "with-parameters"} {
		if stash := byName[name].GetAnnotations()["conversion.drakit.io/stash"]; !strings.Contains(stash, `"parametersRef"`) {
			t.Errorf("claim %s: its parametersRef must ride in the stash, got %q", name, stash)
		}
	}
}

type result struct{ stdout, stderr string }

// runDrakit runs the drakit binary and fails unless it exits with code.
func runDrakit(t *testing.T, bin string, code int, args ...string) result {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	got := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		got = exit.ExitCode()
	} else if err != nil {
		t.Fatalf("drakit %s: %v", strings.Join(args, " "), err)
	}
	if got != code {
		t.Fatalf("drakit %s: exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), got, code, stdout.String(), stderr.String())
	}
	return result{stdout.String(), stderr.String()}
}

func write(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
