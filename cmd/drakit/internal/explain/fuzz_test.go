package explain

import (
	"io"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/drakit/drakit/openapi"
)

// FuzzParsePath parses arbitrary arguments of drakit explain and explains
// the fields against the schema of a v1 ResourceClaim. ParsePath accepts
// exactly the arguments without an empty part and gives them back whole;
// Render never panics and either explains the field or says which one
// does not exist.
//
//	go test ./cmd/drakit/internal/explain -run '^$' -fuzz '^FuzzParsePath$' -fuzztime 1m
func FuzzParsePath(f *testing.F) {
	root, defs, err := openapi.Schema("resource.k8s.io/v1", "ResourceClaim")
	if err != nil {
		f.Fatal(err)
	}
	for _, seed := range []string{"resourceclaim", "resourceclaim.spec.devices.requests.exactly.selectors.cel.expression",
		"resourceclaim.status.allocation.devices.results", "resourceclaim.metadata.annotations.x", "ResourceClaims.spec.devices.colour",
		"", ".", "resourceclaim.", ".spec", "a..b"} {
		f.Add(seed, false)
	}
	f.Add("resourceclaim.spec", true)
	f.Fuzz(func(t *testing.T, arg string, recursive bool) {
		resource, fields, err := ParsePath(arg)
		hasEmpty := arg == "" || strings.HasPrefix(arg, ".") || strings.HasSuffix(arg, ".") || strings.Contains(arg, "..")
		if (err != nil) != hasEmpty {
			t.Fatalf("ParsePath(%q): %v", arg, err)
		}
		if err != nil {
			if !strings.Contains(err.Error(), "RESOURCE[.FIELD...]") {
				t.Fatalf("ParsePath(%q): the error does not say what is expected: %v", arg, err)
			}
			return
		}
		if got := strings.Join(append([]string{resource}, fields...), "."); got != arg {
			t.Fatalf("ParsePath(%q) gives %q %q", arg, resource, fields)
		}
		gvk := schema.GroupVersionKind{Group: "resource.k8s.io", Version: "v1", Kind: "ResourceClaim"}
		err = Render(io.Discard, Request{GVK: gvk, Root: root, Definitions: defs, Path: fields, Recursive: recursive})
		if err != nil && !strings.Contains(err.Error(), "does not exist in ResourceClaim") {
			t.Fatalf("explain %q: %v", arg, err)
		}
		_ = FieldNames(root, defs, fields)
	})
}
