// Command openapi-publish writes the published OpenAPI documents and JSON
// Schemas of resource.k8s.io (hack/update-codegen.sh runs it last, after
// openapi-gen):
//
//	openapi/spec/swagger.json                               OpenAPI v2, every version
//	openapi/spec/apis__resource.k8s.io_openapi.json          OpenAPI v3, the group's discovery path
//	openapi/spec/apis__resource.k8s.io__<version>_openapi.json
//	                                                        OpenAPI v3, one per version
//	openapi/jsonschema/...                                  JSON Schemas in kubeconform's layout
//
// Usage: go run ./hack/openapi-publish [-root DIR]
//
// Every file is built in memory before anything is written. Files in those
// two directories that the current build no longer produces (the documents
// of a removed version) are deleted; anything other than .json files is
// left alone.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/drakit/drakit/openapi/builder"
	"github.com/drakit/drakit/openapi/jsonschemagen"
)

const (
	specDir       = "openapi/spec"
	jsonSchemaDir = "openapi/jsonschema"
)

func main() {
	root := flag.String("root", ".", "the repository to write into")
	flag.Parse()
	if err := run(*root); err != nil {
		fmt.Fprintln(os.Stderr, "openapi-publish:", err)
		os.Exit(1)
	}
}

func run(root string) error {
	files, err := build()
	if err != nil {
		return err
	}
	for _, dir := range []string{specDir, jsonSchemaDir} {
		if err := removeStale(filepath.Join(root, dir), dir, files); err != nil {
			return err
		}
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := writeFile(filepath.Join(root, filepath.FromSlash(name)), files[name]); err != nil {
			return err
		}
	}
	return nil
}

// build returns every published file by its path in the repository.
func build() (map[string][]byte, error) {
	files := map[string][]byte{}

	swagger, err := builder.V2()
	if err != nil {
		return nil, fmt.Errorf("building the OpenAPI v2 document: %w", err)
	}
	v2, err := builder.Encode(swagger)
	if err != nil {
		return nil, fmt.Errorf("encoding the OpenAPI v2 document: %w", err)
	}
	files[specDir+"/swagger.json"] = v2

	group, err := builder.V3Group()
	if err != nil {
		return nil, fmt.Errorf("building the OpenAPI v3 document of the group: %w", err)
	}
	if files[specDir+"/"+builder.V3FileName("")], err = builder.Encode(group); err != nil {
		return nil, fmt.Errorf("encoding the OpenAPI v3 document of the group: %w", err)
	}
	for _, version := range builder.Versions() {
		doc, err := builder.V3(version)
		if err != nil {
			return nil, fmt.Errorf("building the OpenAPI v3 document of %s: %w", version, err)
		}
		if files[specDir+"/"+builder.V3FileName(version)], err = builder.Encode(doc); err != nil {
			return nil, fmt.Errorf("encoding the OpenAPI v3 document of %s: %w", version, err)
		}
	}

	schemas, err := jsonschemagen.Generate(v2, jsonschemagen.Options{Select: ownKind})
	if err != nil {
		return nil, fmt.Errorf("generating the JSON Schemas: %w", err)
	}
	for name, data := range schemas {
		files[jsonSchemaDir+"/"+name] = data
	}
	return files, nil
}

// ownKind selects the kinds of resource.k8s.io; the shared meta kinds
// (Status, DeleteOptions, WatchEvent) are no manifests.
func ownKind(k jsonschemagen.Kind) bool {
	return k.Group == builder.GroupName && strings.HasPrefix(k.Definition, "io.k8s.api.resource.")
}

// removeStale deletes the .json files under dir (the repository path rel)
// that are not in files.
func removeStale(dir, rel string, files map[string][]byte) error {
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if os.IsNotExist(err) && path == dir {
				return fs.SkipDir
			}
			return err
		}
		if d.IsDir() || filepath.Ext(path) != ".json" {
			return nil
		}
		sub, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		if _, keep := files[rel+"/"+filepath.ToSlash(sub)]; keep {
			return nil
		}
		return os.Remove(path)
	})
	if err != nil {
		return fmt.Errorf("removing stale files from %s: %w", dir, err)
	}
	return nil
}

// writeFile replaces path with data unless it already holds exactly that,
// through a temporary file so that an interrupted run never leaves a
// truncated document behind.
func writeFile(path string, data []byte) error {
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, data) {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".openapi-publish-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}
