// Command models-schema prints the OpenAPI v2 definitions of every type that
// openapi-gen generated, named as applyconfiguration-gen expects (the Go
// package path with its host reversed). hack/update-codegen.sh feeds the
// output to applyconfiguration-gen, which embeds the structured-merge-diff
// schema of the resource types in applyconfig/internal.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"k8s.io/kube-openapi/pkg/common"
	"k8s.io/kube-openapi/pkg/validation/spec"

	"github.com/drakit/drakit/openapi"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "models-schema:", err)
		os.Exit(1)
	}
}

func run() error {
	ref := func(name string) spec.Ref {
		return spec.MustCreateRef("#/definitions/" + modelName(name))
	}
	defs := openapi.GetOpenAPIDefinitions(ref)
	schemas := make(map[string]spec.Schema, len(defs))
	for name, def := range defs {
		schema := def.Schema
		// A few shared types carry a separate v2 schema; the apply
		// configuration generator reads v2.
		if v2, ok := def.Schema.Extensions[common.ExtensionV2Schema].(spec.Schema); ok {
			schema = v2
		}
		schemas[modelName(name)] = schema
	}
	doc := spec.Swagger{SwaggerProps: spec.SwaggerProps{
		Swagger:     "2.0",
		Info:        &spec.Info{InfoProps: spec.InfoProps{Title: "drakit models", Version: "unversioned"}},
		Definitions: schemas,
	}}
	out, err := json.Marshal(&doc)
	if err != nil {
		return err
	}
	_, err = os.Stdout.Write(out)
	return err
}

// modelName turns "k8s.io/api/core/v1.NodeSelector" into
// "io.k8s.api.core.v1.NodeSelector", the naming applyconfiguration-gen uses.
func modelName(goName string) string {
	if !strings.Contains(goName, "/") {
		return goName // a model name already (types with OpenAPIModelName)
	}
	parts := strings.Split(goName, "/")
	host := strings.Split(parts[0], ".")
	for i, j := 0, len(host)-1; i < j; i, j = i+1, j-1 {
		host[i], host[j] = host[j], host[i]
	}
	parts[0] = strings.Join(host, ".")
	return strings.Join(parts, ".")
}
