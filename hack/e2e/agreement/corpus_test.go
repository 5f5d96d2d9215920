package agreement

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/drakit/drakit/apis/resource/features"
	"github.com/drakit/drakit/internal/corpus"
)

// corpusDir is the corpus, relative to this package.
const corpusDir = "../../../apis/resource/validation/testdata/corpus"

// The files of the corpus that describe the v1-era directories as a whole
// (see the corpus README): the feature gates their expectations were
// recorded with, and where drakit's validators answer differently.
const (
	corpusGatesRelease = corpus.GatesRelease
	gatesFile          = corpus.GatesFile
	driftFile          = corpus.DriftFile
)

// adminAccessNamespace is the value of a case's "# namespace:" header that
// puts it into a namespace labelled for DRA admin access.
const adminAccessNamespace = corpus.AdminAccessNamespace

// corpusCase is a case as the replay uses it; internal/corpus reads the
// header.
type corpusCase struct {
	name      string
	path      string
	operation string // create, update, status
	old       string // file of the stored object
	requires  string // feature gate
	namespace string // "" or adminAccessNamespace
	// unconditional sends an update without metadata.resourceVersion.
	unconditional bool
	expect        []string
	doc           map[string]any // the object, as JSON
}

func readCase(t *testing.T, path string) corpusCase {
	t.Helper()
	c, err := corpus.ReadCase(path)
	if err != nil {
		t.Fatal(err)
	}
	return corpusCase{
		name:          strings.TrimSuffix(filepath.Base(path), ".yaml"),
		path:          path,
		operation:     c.Operation,
		old:           c.Old,
		requires:      c.Requires,
		namespace:     c.Namespace,
		unconditional: c.OmitResourceVersion,
		expect:        c.Expect,
		doc:           readDoc(t, path),
	}
}

func readDoc(t *testing.T, path string) map[string]any {
	t.Helper()
	m := readDocFile(path)
	if m == nil {
		t.Fatalf("%s: not a YAML object", path)
	}
	return m
}

func readDocFile(path string) map[string]any {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		return nil
	}
	var m map[string]any
	if json.Unmarshal(js, &m) != nil {
		return nil
	}
	return m
}

// corpusGates reads the feature gates the v1-era expectations were recorded
// with: one line in kube-apiserver's --feature-gates syntax, DRA gates only.
func corpusGates(t *testing.T) features.Gates {
	t.Helper()
	g, err := corpus.ReadGates(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// listedDrift is a case the drift file lists: drakit's own answer and why
// it differs from the server's.
type listedDrift struct {
	reason string
	drakit []string
}

// readCorpusDrift reads the drift file, by case ("<directory>/<case>").
func readCorpusDrift(t *testing.T) map[string]listedDrift {
	t.Helper()
	drift, err := corpus.ReadDrift(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	out := make(map[string]listedDrift, len(drift))
	for id, d := range drift {
		out[id] = listedDrift{reason: d.Reason, drakit: d.Drakit}
	}
	return out
}
