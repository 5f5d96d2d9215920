package schemavalidation

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	crdvalidation "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	schemacel "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype"
	schemaobjectmeta "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	utilvalidation "k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/kube-openapi/pkg/validation/strfmt"
	"k8s.io/kube-openapi/pkg/validation/validate"

	"github.com/drakit/drakit/driverconfig"
)

// Validator checks opaque parameters against the schemas of a file. It is
// safe for concurrent use.
type Validator struct {
	// drivers maps a driver name to its config kinds.
	drivers map[string]*driverSchemas
}

type driverSchemas struct {
	kinds map[schema.GroupVersionKind]*compiled
	// known lists the kinds as "apiVersion kind", sorted, for errors.
	known []string
}

// compiled is one config kind's schema in the forms the CRD machinery
// validates with.
type compiled struct {
	gvk        schema.GroupVersionKind
	structural *structuralschema.Structural
	openapi    apiservervalidation.SchemaCreateValidator
	cel        *schemacel.Validator
	// declaresMetadata tells whether the schema has a metadata property:
	// pruning keeps a root metadata field without reporting it, so an
	// undeclared one is reported separately.
	declaresMetadata bool
}

// The synthetic CustomResourceDefinition each schema is checked in: the
// API server's own CRD validation decides whether a schema is one the
// server would accept, and its errors are reported under the schema's
// place in the file instead of under this CRD's.
const (
	crdGroup      = "configs." + GroupName
	crdPlural     = "configs"
	crdKind       = "Config"
	crdVersion    = "v1"
	crdSchemaPath = "spec.validation.openAPIV3Schema"
)

// New compiles a schemas file. The errors name each problem's path in
// the file.
func New(f *File) (*Validator, field.ErrorList) {
	var errs field.ErrorList
	if f.APIVersion != FileAPIVersion {
		errs = append(errs, field.NotSupported(field.NewPath("apiVersion"), f.APIVersion, []string{FileAPIVersion}))
	}
	if f.Kind != FileKind {
		errs = append(errs, field.NotSupported(field.NewPath("kind"), f.Kind, []string{FileKind}))
	}
	if len(f.Drivers) == 0 {
		errs = append(errs, field.Required(field.NewPath("drivers"), "list at least one driver with its config kinds"))
	}
	v := &Validator{drivers: map[string]*driverSchemas{}}
	seenDriver := map[string]*field.Path{}
	for i, d := range f.Drivers {
		dPath := field.NewPath("drivers").Index(i)
		if len(d.Names) == 0 {
			errs = append(errs, field.Required(dPath.Child("names"), "the driver's names, as DeviceClasses and claims write them in opaque.driver"))
		}
		if len(d.Configs) == 0 {
			errs = append(errs, field.Required(dPath.Child("configs"), "at least one config kind"))
		}
		ds := &driverSchemas{kinds: map[schema.GroupVersionKind]*compiled{}}
		for j, c := range d.Configs {
			cPath := dPath.Child("configs").Index(j)
			gvk, cErrs := configGVK(c, cPath)
			errs = append(errs, cErrs...)
			if len(cErrs) > 0 {
				continue
			}
			if _, dup := ds.kinds[gvk]; dup {
				errs = append(errs, field.Duplicate(cPath, c.APIVersion+" "+c.Kind))
				continue
			}
			comp, sErrs := compile(gvk, c.OpenAPIV3Schema, cPath.Child("openAPIV3Schema"))
			errs = append(errs, sErrs...)
			if comp != nil {
				ds.kinds[gvk] = comp
				ds.known = append(ds.known, c.APIVersion+" "+c.Kind)
			}
		}
		sort.Strings(ds.known)
		for k, name := range d.Names {
			nPath := dPath.Child("names").Index(k)
			for _, msg := range utilvalidation.IsDNS1123Subdomain(name) {
				errs = append(errs, field.Invalid(nPath, name, msg))
			}
			if first, dup := seenDriver[name]; dup {
				errs = append(errs, field.Duplicate(nPath, fmt.Sprintf("%s (also at %s)", name, first)))
				continue
			}
			seenDriver[name] = nPath
			v.drivers[name] = ds
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return v, nil
}

// configGVK checks a config's apiVersion and kind.
func configGVK(c Config, fldPath *field.Path) (schema.GroupVersionKind, field.ErrorList) {
	var errs field.ErrorList
	gv, err := schema.ParseGroupVersion(c.APIVersion)
	switch {
	case c.APIVersion == "":
		errs = append(errs, field.Required(fldPath.Child("apiVersion"), "the apiVersion the parameters carry, as in gpu.example.com/v1"))
	case err != nil:
		errs = append(errs, field.Invalid(fldPath.Child("apiVersion"), c.APIVersion, err.Error()))
	case gv.Group == "" || gv.Version == "":
		errs = append(errs, field.Invalid(fldPath.Child("apiVersion"), c.APIVersion, "must be a group and a version, as in gpu.example.com/v1"))
	}
	if c.Kind == "" {
		errs = append(errs, field.Required(fldPath.Child("kind"), "the kind the parameters carry"))
	}
	if c.OpenAPIV3Schema == nil {
		errs = append(errs, field.Required(fldPath.Child("openAPIV3Schema"), "the schema of the parameters"))
	}
	return gv.WithKind(c.Kind), errs
}

// compile checks one schema as the API server checks a CRD's and builds
// the validators a CRD's objects are validated with.
func compile(gvk schema.GroupVersionKind, in *apiextensionsv1.JSONSchemaProps, fldPath *field.Path) (*compiled, field.ErrorList) {
	internal := &apiextensions.JSONSchemaProps{}
	if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(in, internal, nil); err != nil {
		return nil, field.ErrorList{field.Invalid(fldPath, "", err.Error())}
	}
	withTypeMeta(internal)

	crd := &apiextensions.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: crdPlural + "." + crdGroup},
		Spec: apiextensions.CustomResourceDefinitionSpec{
			Group:                 crdGroup,
			Names:                 apiextensions.CustomResourceDefinitionNames{Plural: crdPlural, Singular: "config", Kind: crdKind, ListKind: crdKind + "List"},
			Scope:                 apiextensions.ClusterScoped,
			Versions:              []apiextensions.CustomResourceDefinitionVersion{{Name: crdVersion, Served: true, Storage: true}},
			Validation:            &apiextensions.CustomResourceValidation{OpenAPIV3Schema: internal},
			Conversion:            &apiextensions.CustomResourceConversion{Strategy: apiextensions.NoneConverter},
			PreserveUnknownFields: new(bool),
		},
		Status: apiextensions.CustomResourceDefinitionStatus{StoredVersions: []string{crdVersion}},
	}
	var errs field.ErrorList
	for _, e := range crdvalidation.ValidateCustomResourceDefinition(context.Background(), crd) {
		rest, ok := strings.CutPrefix(e.Field, crdSchemaPath)
		if !ok {
			// Not about the schema: the synthetic CRD is built valid, so
			// this is drakit's mistake; say so rather than hide it.
			e.Field = fldPath.String()
			e.BadValue = ""
			e.Detail = "internal error checking the schema as a CRD's: " + e.Detail
		} else {
			e.Field = fldPath.String() + rest
		}
		errs = append(errs, e)
	}
	if len(errs) > 0 {
		return nil, errs
	}

	s, err := structuralschema.NewStructural(internal)
	if err != nil {
		return nil, field.ErrorList{field.Invalid(fldPath, "", err.Error())}
	}
	_, openapiSchema, err := apiservervalidation.NewSchemaValidator(internal)
	if err != nil {
		return nil, field.ErrorList{field.Invalid(fldPath, "", err.Error())}
	}
	_, declaresMetadata := internal.Properties["metadata"]
	return &compiled{
		gvk:              gvk,
		structural:       s,
		openapi:          createValidator{validate.NewSchemaValidator(openapiSchema, nil, "", strfmt.Default)},
		cel:              schemacel.NewValidator(s, false, celconfig.PerCallLimit),
		declaresMetadata: declaresMetadata,
	}, nil
}

// createValidator is the OpenAPI validator of a create: a config has no
// old value to ratchet against, so the ratcheting validator, which
// builds a validator per call when CRDValidationRatcheting is on, is not
// needed.
type createValidator struct{ v *validate.SchemaValidator }

func (c createValidator) Validate(value interface{}, _ ...apiservervalidation.ValidationOption) *validate.Result {
	return c.v.Validate(value)
}

// withTypeMeta declares apiVersion and kind as strings where the schema
// does not: every config carries them, and a schema need not say so.
func withTypeMeta(s *apiextensions.JSONSchemaProps) {
	if s.Type != "object" {
		return // the CRD check reports it
	}
	if s.Properties == nil {
		s.Properties = map[string]apiextensions.JSONSchemaProps{}
	}
	for _, name := range []string{"apiVersion", "kind"} {
		if _, ok := s.Properties[name]; !ok {
			s.Properties[name] = apiextensions.JSONSchemaProps{Type: "string"}
		}
	}
}

// Drivers are the driver names the schemas cover, sorted.
func (v *Validator) Drivers() []string {
	out := make([]string, 0, len(v.drivers))
	for name := range v.drivers {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// Covers tells whether the schemas have config kinds of driver.
func (v *Validator) Covers(driver string) bool {
	_, ok := v.drivers[driver]
	return ok
}

// Validate checks the opaque parameters raw (JSON, as the API server
// sends them) of a config of driver as the API server validates a custom
// resource of a CRD with the kind's schema, with fieldValidation=Strict:
// defaults applied (to a copy: a validating webhook changes nothing),
// unknown fields refused, the OpenAPI value validations, list types and
// x-kubernetes-validations rules (within the API server's CEL cost
// budget). Every error is under fldPath, the parameters' path in the
// object as the user wrote it. Transition rules (oldSelf) do not run:
// there is no old config to compare with. A driver the schemas do not
// cover gets no errors (see Covers).
func (v *Validator) Validate(ctx context.Context, driver string, raw []byte, fldPath *field.Path) field.ErrorList {
	ds, ok := v.drivers[driver]
	if !ok {
		return nil
	}
	if len(raw) == 0 {
		return field.ErrorList{field.Required(fldPath, "the parameters of a "+driver+" config: an object with apiVersion and kind")}
	}
	var value interface{}
	if err := utiljson.Unmarshal(raw, &value); err != nil {
		return field.ErrorList{field.Invalid(fldPath, "", "not JSON: "+err.Error())}
	}
	obj, ok := value.(map[string]interface{})
	if !ok {
		return field.ErrorList{field.Invalid(fldPath, "", fmt.Sprintf("must be an object with apiVersion and kind, not %s", jsonType(value)))}
	}
	apiVersion, aErr := typeMetaField(obj, "apiVersion", fldPath)
	kind, kErr := typeMetaField(obj, "kind", fldPath)
	if aErr != nil || kErr != nil {
		var errs field.ErrorList
		for _, e := range []*field.Error{aErr, kErr} {
			if e != nil {
				errs = append(errs, e)
			}
		}
		return errs
	}
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return field.ErrorList{field.Invalid(fldPath.Child("apiVersion"), apiVersion, err.Error())}
	}
	c, ok := ds.kinds[gv.WithKind(kind)]
	if !ok {
		return field.ErrorList{field.NotSupported(fldPath.Child("kind"), apiVersion+" "+kind, ds.known)}
	}
	return c.validate(ctx, obj, fldPath)
}

func (c *compiled) validate(ctx context.Context, obj map[string]interface{}, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	structuraldefaulting.Default(obj, c.structural)
	if _, has := obj["metadata"]; has && !c.declaresMetadata {
		errs = append(errs, unknownField(fldPath, "metadata", c.gvk))
	}
	unknown := pruning.PruneWithOptions(obj, c.structural, false, structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true})
	for _, p := range unknown {
		errs = append(errs, unknownField(fldPath, p, c.gvk))
	}
	errs = append(errs, apiservervalidation.ValidateCustomResource(fldPath, obj, c.openapi)...)
	errs = append(errs, schemaobjectmeta.Validate(ctx, fldPath, obj, c.structural, false)...)
	errs = append(errs, listtype.ValidateListSetsAndMaps(fldPath, c.structural, obj)...)
	if c.cel == nil {
		return errs
	}
	// As the CRD strategy does: rules see well-typed values only, so they
	// wait until the errors that make a value ill-typed are fixed.
	if slices.ContainsFunc(errs, blocking) {
		return append(errs, field.Invalid(fldPath, "", "some x-kubernetes-validations rules were not checked because the parameters are invalid; correct the errors above to check them"))
	}
	celErrs, _ := c.cel.Validate(ctx, fldPath, c.structural, obj, nil, celconfig.RuntimeCELCostBudget)
	return append(errs, celErrs...)
}

// blocking are the errors after which the CRD strategy does not run CEL
// rules (hasBlockingErr in apiextensions-apiserver's customresource
// registry).
func blocking(e *field.Error) bool {
	switch e.Type {
	case field.ErrorTypeNotSupported, field.ErrorTypeRequired, field.ErrorTypeTooLong, field.ErrorTypeTooMany, field.ErrorTypeTypeInvalid:
		return true
	}
	return false
}

// unknownField is the error for a field the schema does not declare, at
// its own path (pruning writes "a.b[0].c" below the parameters).
func unknownField(fldPath *field.Path, rel string, gvk schema.GroupVersionKind) *field.Error {
	sep := "."
	if strings.HasPrefix(rel, "[") {
		sep = ""
	}
	return field.Forbidden(field.NewPath(fldPath.String()+sep+rel), fmt.Sprintf("unknown field: the schema of %s %s does not declare it", gvk.GroupVersion(), gvk.Kind))
}

func typeMetaField(obj map[string]interface{}, name string, fldPath *field.Path) (string, *field.Error) {
	raw, ok := obj[name]
	if !ok {
		return "", field.Required(fldPath.Child(name), "every config names its "+name)
	}
	s, ok := raw.(string)
	if !ok || s == "" {
		return "", field.Invalid(fldPath.Child(name), raw, "must be a non-empty string")
	}
	return s, nil
}

func jsonType(v interface{}) string {
	switch v.(type) {
	case nil:
		return "null"
	case []interface{}:
		return "an array"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	default:
		return "a number"
	}
}

// Register registers the validator in reg under every driver name it
// covers, as a driverconfig.Validator: the driverconfig admission handler
// then checks those drivers' configs against the schemas.
func (v *Validator) Register(reg *driverconfig.Registry) error {
	return reg.Register(driverconfig.Validator(func(ctx context.Context, cfg driverconfig.Config) field.ErrorList {
		return v.Validate(ctx, cfg.Driver, cfg.Parameters.Raw, cfg.Path)
	}), v.Drivers()...)
}
