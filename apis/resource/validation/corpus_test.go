package validation

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/drakit/drakit/apis/resource/catalogue"
	"github.com/drakit/drakit/apis/resource/features"
	"github.com/drakit/drakit/conversion"
	"github.com/drakit/drakit/internal/corpus"
)

// The corpus in testdata/corpus/<version>/ holds one object per file with
// its expected outcome in header comments, read by internal/corpus; the
// same files are replayed against real API servers with dryRun by the
// end-to-end suite; see testdata/corpus/README.md.

// readCorpusCase reads a case and refuses one that does not say what to
// expect.
func readCorpusCase(t *testing.T, path string) *corpus.Case {
	t.Helper()
	c, err := corpus.ReadCase(path)
	if err != nil {
		t.Fatal(err)
	}
	if !c.Expects() {
		t.Fatalf("%s: needs either \"# expect: valid\" or expected errors", path)
	}
	return c
}

// strictDecoder rejects unknown fields, so that a typo in the corpus cannot
// silently turn into a valid object.
var strictDecoder = serializer.NewCodecFactory(conversion.Scheme, serializer.EnableStrict).UniversalDeserializer()

func decodeCorpusObject(t *testing.T, path string, data []byte) runtime.Object {
	t.Helper()
	obj, _, err := strictDecoder.Decode(data, nil, nil)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return obj
}

// readCorpusOld reads the stored object of an update or status case.
func readCorpusOld(t *testing.T, c *corpus.Case) (string, runtime.Object) {
	t.Helper()
	path := c.OldPath()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, decodeCorpusObject(t, path, data)
}

// reasons lists the distinct "reason field" pairs of errs, as the server
// reports them in its causes.
func reasons(errs field.ErrorList) []string {
	seen := map[string]bool{}
	var out []string
	for _, e := range errs {
		s := string(e.Type) + " " + e.Field
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

func TestCorpus(t *testing.T) {
	versions := []string{"v1alpha1", "v1alpha2", "v1alpha3"}
	total := 0
	for _, version := range versions {
		dir := filepath.Join(corpusDir, version)
		files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range files {
			if strings.HasSuffix(path, ".old.yaml") {
				continue
			}
			total++
			name := strings.TrimSuffix(filepath.Base(path), ".yaml")
			t.Run(version+"/"+name, func(t *testing.T) {
				c := readCorpusCase(t, path)
				obj := decodeCorpusObject(t, path, c.Data)
				if gv := obj.GetObjectKind().GroupVersionKind().Version; gv != version {
					t.Fatalf("%s: apiVersion %s in the %s directory", path, gv, version)
				}
				var errs field.ErrorList
				switch c.Operation {
				case corpus.OperationCreate:
					errs = ValidateObject(obj, Options{})
				case corpus.OperationUpdate, corpus.OperationStatus:
					oldPath, old := readCorpusOld(t, c)
					checkReachable(t, oldPath, old, c.Operation)
					if c.Operation == corpus.OperationUpdate {
						errs = ValidateObjectUpdate(obj, old, Options{})
					} else {
						errs = ValidateObjectStatusUpdate(obj, old, Options{})
					}
				}
				want := c.Expect
				if got := reasons(errs); strings.Join(got, "\n") != strings.Join(want, "\n") {
					t.Errorf("%s:\n got: %q\nwant: %q\nerrors: %v", path, got, want, errs)
				}
			})
		}
	}
	if total < 100 {
		t.Errorf("the corpus has %d cases; at least 100 are required", total)
	}
}

// checkReachable makes sure the end-to-end suite can produce the stored
// object of a case: it must be valid to create, and for status cases its
// status must be valid to write onto the freshly created object.
func checkReachable(t *testing.T, path string, old runtime.Object, operation string) {
	t.Helper()
	if errs := ValidateObject(old, Options{}); len(errs) > 0 {
		t.Fatalf("%s: the stored object cannot be created: %v", path, errs)
	}
	if operation != "status" {
		return
	}
	created := old.DeepCopyObject()
	clearStatus(created)
	if errs := ValidateObjectStatusUpdate(old, created, Options{}); len(errs) > 0 {
		t.Fatalf("%s: the stored status cannot be written: %v", path, errs)
	}
}

// clearStatus zeroes the status field of a typed object, as a create does.
func clearStatus(obj runtime.Object) {
	v := reflectValue(obj).FieldByName("Status")
	if v.IsValid() {
		v.Set(zeroOf(v))
	}
}

func reflectValue(obj runtime.Object) reflect.Value { return reflect.ValueOf(obj).Elem() }

func zeroOf(v reflect.Value) reflect.Value { return reflect.Zero(v.Type()) }

// The v1-era directories hold cases of the kinds validated with the rules
// of Kubernetes 1.37. Unlike the older directories, whose expectations are
// drakit's and were checked against the server of their release, their
// expect lines are what kube-apiserver 1.37.2 answered (hack/e2e records
// and re-checks them), with the feature gates of feature-gates-1.37; where
// drakit answers differently, drift-1.37.yaml lists the case with drakit's
// answer and the reason.
var corpusDirsV1Era = []string{"v1", "v1beta2", "v1beta1", "v1alpha3-1.37"}

// corpusDir is the corpus, which also holds corpus.GatesFile and
// corpus.DriftFile; the v1-era directories hold the rules of
// corpus.GatesRelease.
var corpusDir = filepath.Join("testdata", "corpus")

const (
	// The namespaces the cases are validated in: a case with
	// "# namespace: admin-access" goes into one labelled for DRA admin
	// access, every other namespaced case into one without the label.
	corpusNamespace            = "corpus"
	corpusAdminAccessNamespace = "corpus-admin-access"
	adminAccessNamespaceLabel  = "resource.kubernetes.io/admin-access"
)

func readCorpusGates(t *testing.T) features.Gates {
	t.Helper()
	g, err := corpus.ReadGates(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func readCorpusDrift(t *testing.T) map[string]corpus.Drift {
	t.Helper()
	drift, err := corpus.ReadDrift(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	return drift
}

// corpusOptionsV1Era are the options the v1-era cases are validated with:
// the recorded gates and the labels of the two namespaces.
func corpusOptionsV1Era(t *testing.T) Options {
	return Options{
		FeatureGates: readCorpusGates(t),
		NamespaceLabels: func(ns string) (map[string]string, error) {
			switch ns {
			case corpusAdminAccessNamespace:
				return map[string]string{adminAccessNamespaceLabel: "true"}, nil
			case corpusNamespace:
				return map[string]string{}, nil
			}
			return nil, fmt.Errorf("namespace %q is not one of the corpus's", ns)
		},
	}
}

// placeCorpusObject puts obj into the case's namespace (cluster-scoped
// objects lose it again when validated, as on the server) and sets the
// resourceVersion the replay sends with an update.
func placeCorpusObject(t *testing.T, obj runtime.Object, namespace string, resourceVersion string) {
	t.Helper()
	m, err := meta.Accessor(obj)
	if err != nil {
		t.Fatal(err)
	}
	m.SetNamespace(namespace)
	m.SetResourceVersion(resourceVersion)
}

func TestCorpusV1Era(t *testing.T) {
	opts := corpusOptionsV1Era(t)
	drift := readCorpusDrift(t)
	seen := map[string]bool{}
	total := 0
	for _, dir := range corpusDirsV1Era {
		version, _, _ := strings.Cut(dir, "-")
		files, err := filepath.Glob(filepath.Join(corpusDir, dir, "*.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		if len(files) == 0 {
			t.Errorf("no cases in testdata/corpus/%s", dir)
		}
		for _, path := range files {
			if strings.HasSuffix(path, ".old.yaml") {
				continue
			}
			total++
			id := dir + "/" + strings.TrimSuffix(filepath.Base(path), ".yaml")
			d, listed := drift[id]
			seen[id] = true
			t.Run(id, func(t *testing.T) {
				c := readCorpusCase(t, path)
				errs := validateCorpusCaseV1Era(t, c, path, dir, version, opts)
				compareWithServer(t, id, path, reasons(errs), c.Expect, errs, d, listed)
			})
		}
	}
	for id, d := range drift {
		if !seen[id] {
			t.Errorf("%s lists %s (%s), which is not a case", corpus.DriftFile, id, d.Reason)
		}
	}
	if total < 150 {
		t.Errorf("the v1-era corpus has %d cases; at least 150 are required", total)
	}
}

// validateCorpusCaseV1Era validates the case c read from path, in the
// directory dir of version, as it was recorded against the server.
func validateCorpusCaseV1Era(t *testing.T, c *corpus.Case, path, dir, version string, opts Options) field.ErrorList {
	t.Helper()
	if c.Requires != "" && !opts.FeatureGates.Enabled(features.Name(c.Requires)) {
		t.Fatalf("%s needs feature gate %s, which %s does not enable: the case cannot be recorded", path, c.Requires, corpus.GatesFile)
	}
	ns := corpusNamespace
	if c.Namespace == corpus.AdminAccessNamespace {
		ns = corpusAdminAccessNamespace
	}
	rv := "1"
	if c.OmitResourceVersion {
		rv = ""
	}
	obj := decodeCorpusObject(t, path, c.Data)
	gvk := obj.GetObjectKind().GroupVersionKind()
	if gvk.Version != version {
		t.Fatalf("%s: apiVersion %s in the %s directory", path, gvk.Version, dir)
	}
	if v, k, ok := catalogue.Find(gvk.Kind, version); !ok || v.RulesOf(k) != corpus.GatesRelease {
		t.Fatalf("%s: %s %s does not have the rules of 1.%d; it belongs in another directory", path, version, gvk.Kind, corpus.GatesRelease)
	}
	switch c.Operation {
	case corpus.OperationCreate:
		placeCorpusObject(t, obj, ns, "")
		return ValidateObject(obj, opts)
	case corpus.OperationUpdate, corpus.OperationStatus:
		oldPath, old := readCorpusOld(t, c)
		placeCorpusObject(t, old, ns, "")
		checkReachableWith(t, oldPath, old, c.Operation, opts)
		placeCorpusObject(t, old, ns, "1")
		placeCorpusObject(t, obj, ns, rv)
		if c.Operation == corpus.OperationUpdate {
			return ValidateObjectUpdate(obj, old, opts)
		}
		return ValidateObjectStatusUpdate(obj, old, opts)
	}
	return nil
}

// compareWithServer checks drakit's answer got to the case id against the
// server's, want: they agree, or the drift file lists the difference (d,
// listed) with drakit's answer as it is.
func compareWithServer(t *testing.T, id, path string, got, want []string, errs field.ErrorList, d corpus.Drift, listed bool) {
	t.Helper()
	same := strings.Join(got, "\n") == strings.Join(want, "\n")
	switch {
	case listed && same:
		t.Errorf("%s lists %s (%s), but drakit now gives the server's answer %q; remove the entry", corpus.DriftFile, id, d.Reason, got)
	case listed && strings.Join(got, "\n") != strings.Join(d.Drakit, "\n"):
		t.Errorf("%s lists drakit's answer to %s as %q (%s), but drakit answers %q (server: %q)", corpus.DriftFile, id, d.Drakit, d.Reason, got, want)
	case listed:
		t.Logf("known drift (%s):\n server: %q\n drakit: %q", d.Reason, want, got)
	case !same:
		t.Errorf("%s: drakit differs from kube-apiserver 1.37.2, and %s does not list it:\n drakit: %q\n server: %q\nerrors: %v", path, corpus.DriftFile, got, want, errs)
	}
}

// checkReachableWith is checkReachable with the options of the directory.
func checkReachableWith(t *testing.T, path string, old runtime.Object, operation string, opts Options) {
	t.Helper()
	if errs := ValidateObject(old, opts); len(errs) > 0 {
		t.Fatalf("%s: the stored object cannot be created: %v", path, errs)
	}
	if operation != "status" {
		return
	}
	created := old.DeepCopyObject()
	clearStatus(created)
	placeCorpusObject(t, created, mustNamespace(t, old), "1")
	withVersion := old.DeepCopyObject()
	placeCorpusObject(t, withVersion, mustNamespace(t, old), "1")
	if errs := ValidateObjectStatusUpdate(withVersion, created, opts); len(errs) > 0 {
		t.Fatalf("%s: the stored status cannot be written: %v", path, errs)
	}
}

func mustNamespace(t *testing.T, obj runtime.Object) string {
	t.Helper()
	m, err := meta.Accessor(obj)
	if err != nil {
		t.Fatal(err)
	}
	return m.GetNamespace()
}
