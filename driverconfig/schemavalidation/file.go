package schemavalidation

import (
	"bytes"
	"fmt"
	"io"
	"os"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/yaml"
)

// GroupName is the API group of the schemas file.
const GroupName = "webhook.drakit.io"

// FileKind and FileAPIVersion are the kind and apiVersion a schemas file
// declares.
const (
	FileKind       = "ConfigSchemas"
	FileAPIVersion = GroupName + "/v1alpha1"
)

// maxFileSize bounds what Load reads: a schemas file is hand-written, and
// a larger one is a mistake (a binary, a log) rather than schemas.
const maxFileSize = 8 << 20

// File is a schemas file: the opaque configuration kinds of one or more
// drivers, each with the OpenAPI v3 schema its parameters must satisfy.
//
//	apiVersion: webhook.drakit.io/v1alpha1
//	kind: ConfigSchemas
//	drivers:
//	- names: [gpu.example.com]
//	  configs:
//	  - apiVersion: gpu.example.com/v1
//	    kind: GpuConfig
//	    openAPIV3Schema:
//	      type: object
//	      properties:
//	        sharing: {type: string, enum: [TimeSlicing, SpacePartitioning]}
//	      x-kubernetes-validations:
//	      - rule: "!has(self.replicas) || self.sharing == 'TimeSlicing'"
//	        message: replicas need TimeSlicing
type File struct {
	metav1.TypeMeta `json:",inline"`
	// Drivers are the drivers whose configs the file describes.
	Drivers []Driver `json:"drivers"`
}

// Driver is one driver, under all the names it publishes devices under
// (a driver with two names, like one for GPUs and one for compute
// domains, lists both, and both get every config kind), with its config
// kinds.
type Driver struct {
	// Names are the driver names (DeviceClass and claim configs'
	// opaque.driver) whose configs these schemas check.
	Names []string `json:"names"`
	// Configs are the config kinds the driver accepts. A config of the
	// driver whose apiVersion and kind are not among them is refused.
	Configs []Config `json:"configs"`
}

// Config is one config kind and its schema.
type Config struct {
	// APIVersion and Kind are those the opaque parameters carry.
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	// OpenAPIV3Schema is the schema of the parameters, written as a
	// CustomResourceDefinition version's schema.openAPIV3Schema and
	// checked as the API server checks one: structural, with defaults,
	// list types and x-kubernetes-validations (CEL) rules. apiVersion and
	// kind need not be declared.
	OpenAPIV3Schema *apiextensionsv1.JSONSchemaProps `json:"openAPIV3Schema"`
}

// Load reads a schemas file (YAML or JSON) and compiles it.
func Load(path string) (*Validator, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading the schemas: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("reading the schemas %s: %w", path, err)
	}
	if len(data) > maxFileSize {
		return nil, fmt.Errorf("schemas file %s: larger than %d bytes", path, maxFileSize)
	}
	return Parse(data, path)
}

// Parse decodes a schemas file strictly (an unknown or duplicate field is
// an error, as kubectl's strict field validation makes it) and compiles
// it. source names the file in errors.
func Parse(data []byte, source string) (*Validator, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, fmt.Errorf("schemas file %s is empty: it needs apiVersion %s, kind %s and drivers", source, FileAPIVersion, FileKind)
	}
	var f File
	if err := yaml.UnmarshalStrict(data, &f); err != nil {
		return nil, fmt.Errorf("schemas file %s: %w", source, err)
	}
	v, errs := New(&f)
	if len(errs) > 0 {
		return nil, &FileError{Source: source, Errs: errs}
	}
	return v, nil
}

// FileError lists what is wrong with a schemas file, each problem under
// its path in the file (drivers[0].configs[1].openAPIV3Schema.properties...).
type FileError struct {
	Source string
	Errs   field.ErrorList
}

func (e *FileError) Error() string {
	return fmt.Sprintf("schemas file %s: %v", e.Source, e.Errs.ToAggregate())
}
