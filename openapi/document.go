package openapi

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"k8s.io/kube-openapi/pkg/validation/spec"

	"k8s.io/apimachinery/pkg/version"
)

// published holds the files hack/openapi-publish writes (see
// openapi/builder and openapi/jsonschemagen): the OpenAPI documents and
// the JSON Schemas. Serving them keeps the CLI from rebuilding documents
// at run time, and guarantees it prints exactly what is published.
//
// The directories are embedded whole: each keeps a README.md, so that the
// package still compiles when no document has been published yet, and
// hack/update-codegen.sh (which compiles it) can publish them.
//
//go:embed spec jsonschema
var published embed.FS

const (
	group        = "resource.k8s.io"
	swaggerFile  = "spec/swagger.json"
	standalone   = "jsonschema/standalone"
	v3Prefix     = "spec/apis__" + group + "__"
	v3Suffix     = "_openapi.json"
	gvkExtension = "x-kubernetes-group-version-kind"
)

// Formats of Document.
const (
	FormatV2         = "v2"
	FormatV3         = "v3"
	FormatJSONSchema = "jsonschema"
)

// GroupVersions returns the group versions that have published documents,
// oldest first in Kubernetes' version order (v1alpha1 before v1beta1
// before v1): "resource.k8s.io/v1alpha1", ...
func GroupVersions() []string {
	files, _ := fs.Glob(published, v3Prefix+"*"+v3Suffix)
	var out []string
	for _, f := range files {
		out = append(out, group+"/"+strings.TrimSuffix(strings.TrimPrefix(f, v3Prefix), v3Suffix))
	}
	sort.Slice(out, func(i, j int) bool {
		return version.CompareKubeAwareVersionStrings(path.Base(out[i]), path.Base(out[j])) < 0
	})
	return out
}

// Document returns the published document for a group-version
// ("resource.k8s.io/v1alpha2") in format "v2", "v3" or "jsonschema" (for
// jsonschema: all kinds' schemas of that version as one JSON object keyed
// by kind), as indented JSON.
//
// The v3 document is the one the API server of the version's release
// serves at /openapi/v3/apis/<group>/<version>. The published v2 document
// holds every version; Document returns the part of it that belongs to
// groupVersion: its paths and the definitions and parameters they use.
// The JSON Schemas are the standalone ones (no $ref left), including the
// List kinds.
func Document(groupVersion, format string) ([]byte, error) {
	version, err := versionOf(groupVersion)
	if err != nil {
		return nil, err
	}
	switch format {
	case FormatV3:
		return published.ReadFile(v3File(version))
	case FormatV2:
		return v2Document(version)
	case FormatJSONSchema:
		return jsonSchemas(version)
	default:
		return nil, fmt.Errorf("openapi: unknown format %q; use %s, %s or %s", format, FormatV2, FormatV3, FormatJSONSchema)
	}
}

// Schema returns the OpenAPI v3 schema of a kind at a group-version with
// all $refs resolvable through the returned definitions map, for `drakit
// explain`.
//
// Every $ref in root and in the definitions has the form
// "#/components/schemas/<name>", and definitions[<name>] is the schema it
// names; the kind's own definition is in the map too. kind is matched
// exactly first, then without regard to case ("resourceclaim").
func Schema(groupVersion, kind string) (root *spec.Schema, definitions map[string]*spec.Schema, err error) {
	version, err := versionOf(groupVersion)
	if err != nil {
		return nil, nil, err
	}
	data, err := published.ReadFile(v3File(version))
	if err != nil {
		return nil, nil, err
	}
	var doc struct {
		Components struct {
			Schemas map[string]json.RawMessage `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, nil, fmt.Errorf("openapi: reading the published document of %s: %w", groupVersion, err)
	}
	schemas := doc.Components.Schemas

	name, err := definitionOfKind(schemas, version, kind)
	if err != nil {
		return nil, nil, fmt.Errorf("openapi: %s: %w", groupVersion, err)
	}
	reachable, err := closure(schemas, []string{name}, "#/components/schemas/")
	if err != nil {
		return nil, nil, fmt.Errorf("openapi: the published document of %s: %w", groupVersion, err)
	}
	definitions = make(map[string]*spec.Schema, len(reachable))
	for _, n := range reachable {
		s := new(spec.Schema)
		if err := json.Unmarshal(schemas[n], s); err != nil {
			return nil, nil, fmt.Errorf("openapi: definition %s of %s: %w", n, groupVersion, err)
		}
		definitions[n] = s
	}
	return definitions[name], definitions, nil
}

// versionOf checks that groupVersion has published documents and returns
// its version.
func versionOf(groupVersion string) (string, error) {
	g, version, ok := strings.Cut(groupVersion, "/")
	if ok && g == group && version != "" && !strings.ContainsAny(version, "/*?[\\") {
		if _, err := fs.Stat(published, v3File(version)); err == nil {
			return version, nil
		}
	}
	return "", fmt.Errorf("openapi: no documents for group version %q; the published ones are %s",
		groupVersion, strings.Join(GroupVersions(), ", "))
}

func v3File(version string) string { return v3Prefix + version + v3Suffix }

// kindRef is one entry of x-kubernetes-group-version-kind.
type kindRef struct {
	Group   string `json:"group"`
	Version string `json:"version"`
	Kind    string `json:"kind"`
}

// kindsOf reads the x-kubernetes-group-version-kind of a definition.
func kindsOf(raw json.RawMessage) []kindRef {
	var def struct {
		Kinds []kindRef `json:"x-kubernetes-group-version-kind"`
	}
	_ = json.Unmarshal(raw, &def) // a definition without the extension serves no kind
	return def.Kinds
}

// definitionOfKind finds the definition served as kind in version.
func definitionOfKind(schemas map[string]json.RawMessage, version, kind string) (string, error) {
	var exact, folded []string
	var kinds []string
	for name, raw := range schemas {
		for _, k := range kindsOf(raw) {
			if k.Group != group || k.Version != version {
				continue
			}
			if !strings.HasPrefix(name, "io.k8s.api.") {
				continue // Status, DeleteOptions, WatchEvent: meta kinds, no manifests
			}
			kinds = append(kinds, k.Kind)
			switch {
			case k.Kind == kind:
				exact = append(exact, name)
			case strings.EqualFold(k.Kind, kind):
				folded = append(folded, name)
			}
		}
	}
	switch {
	case len(exact) == 1:
		return exact[0], nil
	case len(exact) == 0 && len(folded) == 1:
		return folded[0], nil
	}
	sort.Strings(kinds)
	return "", fmt.Errorf("no kind %q; the kinds are %s", kind, strings.Join(kinds, ", "))
}

// closure returns the names of the definitions start refers to, directly
// or not, including start, sorted. prefix is how $refs to definitions
// begin in the document.
func closure(defs map[string]json.RawMessage, start []string, prefix string) ([]string, error) {
	seen := map[string]bool{}
	queue := append([]string(nil), start...)
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		if seen[name] {
			continue
		}
		raw, ok := defs[name]
		if !ok {
			return nil, fmt.Errorf("a $ref names definition %q, which the document does not have", name)
		}
		seen[name] = true
		refs, err := refsIn(raw)
		if err != nil {
			return nil, fmt.Errorf("definition %s: %w", name, err)
		}
		for _, ref := range refs {
			if target, ok := strings.CutPrefix(ref, prefix); ok {
				queue = append(queue, target)
			}
		}
	}
	out := make([]string, 0, len(seen))
	for name := range seen {
		out = append(out, name)
	}
	sort.Strings(out)
	return out, nil
}

// refsIn lists the $ref values anywhere in a JSON document.
func refsIn(raw json.RawMessage) ([]string, error) {
	var v interface{}
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	var refs []string
	var walk func(interface{})
	walk = func(v interface{}) {
		switch t := v.(type) {
		case map[string]interface{}:
			for k, item := range t {
				if s, ok := item.(string); ok && k == "$ref" {
					refs = append(refs, s)
					continue
				}
				walk(item)
			}
		case []interface{}:
			for _, item := range t {
				walk(item)
			}
		}
	}
	walk(v)
	return refs, nil
}

// v2Document cuts the part of version out of the published OpenAPI v2
// document: the version's paths, the definitions and shared parameters
// they use, and the document's info and security. The kinds listed on
// shared definitions (DeleteOptions, WatchEvent, Status) are limited to
// the core group and this version.
func v2Document(version string) ([]byte, error) {
	data, err := published.ReadFile(swaggerFile)
	if err != nil {
		return nil, err
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("openapi: reading the published OpenAPI v2 document: %w", err)
	}
	var paths, definitions, parameters map[string]json.RawMessage
	for key, target := range map[string]*map[string]json.RawMessage{"paths": &paths, "definitions": &definitions, "parameters": &parameters} {
		if raw, ok := doc[key]; ok {
			if err := json.Unmarshal(raw, target); err != nil {
				return nil, fmt.Errorf("openapi: reading %s of the published OpenAPI v2 document: %w", key, err)
			}
		}
	}

	prefix := "/apis/" + group + "/" + version + "/"
	keptPaths := map[string]json.RawMessage{}
	var usedDefs, usedParams []string
	for p, raw := range paths {
		if p+"/" != prefix && !strings.HasPrefix(p, prefix) {
			continue
		}
		keptPaths[p] = raw
		refs, err := refsIn(raw)
		if err != nil {
			return nil, fmt.Errorf("openapi: path %s of the published OpenAPI v2 document: %w", p, err)
		}
		for _, ref := range refs {
			if name, ok := strings.CutPrefix(ref, "#/definitions/"); ok {
				usedDefs = append(usedDefs, name)
			} else if name, ok := strings.CutPrefix(ref, "#/parameters/"); ok {
				usedParams = append(usedParams, name)
			}
		}
	}
	keptParams := map[string]json.RawMessage{}
	for _, name := range usedParams {
		raw, ok := parameters[name]
		if !ok {
			return nil, fmt.Errorf("openapi: the published OpenAPI v2 document refers to parameter %q, which it does not have", name)
		}
		keptParams[name] = raw
		refs, err := refsIn(raw)
		if err != nil {
			return nil, err
		}
		for _, ref := range refs {
			if def, ok := strings.CutPrefix(ref, "#/definitions/"); ok {
				usedDefs = append(usedDefs, def)
			}
		}
	}
	names, err := closure(definitions, usedDefs, "#/definitions/")
	if err != nil {
		return nil, fmt.Errorf("openapi: the published OpenAPI v2 document: %w", err)
	}
	keptDefs := map[string]json.RawMessage{}
	for _, name := range names {
		raw, err := onlyVersionKinds(definitions[name], version)
		if err != nil {
			return nil, fmt.Errorf("openapi: definition %s of the published OpenAPI v2 document: %w", name, err)
		}
		keptDefs[name] = raw
	}

	out := map[string]interface{}{}
	for key, raw := range doc {
		out[key] = raw
	}
	out["paths"] = keptPaths
	out["definitions"] = keptDefs
	if len(keptParams) > 0 {
		out["parameters"] = keptParams
	} else {
		delete(out, "parameters")
	}
	return indent(out)
}

// onlyVersionKinds drops from a definition's x-kubernetes-group-version-kind
// the kinds of the group's other versions.
func onlyVersionKinds(raw json.RawMessage, version string) (json.RawMessage, error) {
	var def map[string]json.RawMessage
	if err := json.Unmarshal(raw, &def); err != nil {
		return nil, err
	}
	listed, ok := def[gvkExtension]
	if !ok {
		return raw, nil
	}
	var kinds []kindRef
	if err := json.Unmarshal(listed, &kinds); err != nil {
		return nil, err
	}
	kept := kinds[:0]
	for _, k := range kinds {
		if k.Group != group || k.Version == version {
			kept = append(kept, k)
		}
	}
	if len(kept) == len(kinds) {
		return raw, nil
	}
	ext, err := json.Marshal(kept)
	if err != nil {
		return nil, err
	}
	def[gvkExtension] = ext
	return json.Marshal(def)
}

// jsonSchemas collects the standalone JSON Schemas of the kinds of version
// into one object keyed by kind.
func jsonSchemas(version string) ([]byte, error) {
	files, err := fs.Glob(published, standalone+"/*-"+strings.SplitN(group, ".", 2)[0]+"-"+version+".json")
	if err != nil {
		return nil, err
	}
	out := map[string]json.RawMessage{}
	for _, f := range files {
		data, err := published.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var kinds []kindRef
		for _, k := range kindsOf(data) {
			if k.Group == group && k.Version == version {
				kinds = append(kinds, k)
			}
		}
		if len(kinds) != 1 {
			return nil, fmt.Errorf("openapi: published schema %s names %d kinds of %s/%s, want 1", path.Base(f), len(kinds), group, version)
		}
		out[kinds[0].Kind] = data
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("openapi: no JSON Schemas are published for %s/%s", group, version)
	}
	return indent(out)
}

// indent encodes v as the published files are: two-space indentation,
// sorted keys, no HTML escaping, final newline.
func indent(v interface{}) ([]byte, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var generic interface{}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&generic); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(generic); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}
