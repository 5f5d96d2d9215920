package validation

import (
	"fmt"
	"regexp"
	"strconv"

	resourcev1 "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The kinds of v1beta1 and v1beta2 are validated in their v1 form (see
// registerViaV1). v1beta2 has v1's layout, so a v1 path is also its path;
// v1beta1 has two differences that a dropped field can sit behind (ga-facts
// section 4): a request's class, selectors, count, adminAccess,
// tolerations, capacity and derivedAttributes are on the request itself,
// not under "exactly", and a slice device's properties are under "basic".
// List indexes, map keys and every other step are the same in both.
var (
	// v1ExactlyStep matches a request's "exactly" step in a claim
	// (spec.devices) or template (spec.spec.devices).
	v1ExactlyStep = regexp.MustCompile(`^((?:spec\.)?spec\.devices\.requests\[\d+\])\.exactly(\.|$)`)
	// v1DeviceStep matches a slice device followed by one of its
	// properties.
	v1DeviceStep = regexp.MustCompile(`^(spec\.devices\[\d+\])\.`)
)

// v1PathInVersion turns a field path of a v1 object into the path of the
// same field in version's kind; paths of other versions and kinds are
// returned as they are.
func v1PathInVersion(version, kind, path string) string {
	if version != "v1beta1" {
		return path
	}
	switch kind {
	case "ResourceClaim", "ResourceClaimTemplate":
		return v1ExactlyStep.ReplaceAllString(path, "$1$2")
	case "ResourceSlice":
		return v1DeviceStep.ReplaceAllString(path, "$1.basic.")
	}
	return path
}

// Which path an error of a v1beta1 object has.
//
// 1.37 validates a v1beta1 object twice (k8s.io/apiserver's
// ValidateDeclarativelyWithMigrationChecks): the handwritten validation
// runs on the internal object, which has v1's layout, and reports v1's
// paths; the declarative validation generated from the +k8s: tags of the
// v1beta1 types runs on the object as sent and reports v1beta1's paths.
// The response has
//
//   - every declarative error whose tag is standard (no lifecycle prefix)
//     or +k8s:beta (DeclarativeValidationBeta is on by default), under
//     v1beta1's path; +k8s:alpha errors are not reported;
//   - every handwritten error, under v1's path, except one that upstream
//     marks MarkCoveredByDeclarative and for which a beta declarative
//     error of the same type, origin and path exists (paths compared
//     after ResourceNormalizationRules turn v1beta1's into v1's).
//
// So a rule that only the handwritten validation has, or whose
// declarative tag is alpha, keeps v1's path; a rule with a beta tag and a
// covered handwritten counterpart, or with a declarative tag only, moves
// to v1beta1's path; a rule with a standard tag and a handwritten
// counterpart would be reported under both (1.37.2 has none under the
// paths that differ). Where two rules report the same field (a derived
// attribute's name that is not fully qualified and is not used by a
// constraint), each keeps its own path, and the field appears under both.
//
// The validators here report the rules of both validations under v1's
// paths (rules.go); v1beta1DeclarativePathsV1 moves the errors of the rules
// below to v1beta1's paths. The rules are those of
// k8s.io/kubernetes v1.37.2 pkg/apis/resource/v1beta1/zz_generated.validations.go
// (Validate_DeviceRequest and Validate_BasicDevice with the types they
// call) whose field paths differ between the versions, checked against
// the handwritten pkg/apis/resource/validation: its MarkCoveredByDeclarative
// calls and its validateSlice/validateSet/validateMap options sizeCovered,
// uniquenessCovered and keysCovered. Only the parts under
// requests[i].exactly and spec.devices[i] differ, so only they are listed.

// declarativeRuleV1beta1 is one rule the declarative validation of a
// v1beta1 object reports under v1beta1's path.
type declarativeRuleV1beta1 struct {
	// field matches the path below the request's "exactly." or below the
	// slice's device.
	field *regexp.Regexp
	typ   field.ErrorType
	// origin, when set, is the origin of the declarative error: it tells
	// the rule from handwritten ones of the same type on the same field.
	origin string
	// declarative, when set, says whether an error that passed field, typ
	// and origin is the declarative one.
	declarative func(e *field.Error) bool
}

func ruleV1beta1(path string, typ field.ErrorType, origin string, declarative func(*field.Error) bool) declarativeRuleV1beta1 {
	return declarativeRuleV1beta1{field: regexp.MustCompile(`^(?:` + path + `)$`), typ: typ, origin: origin, declarative: declarative}
}

// requestRulesV1beta1 are the rules of a v1beta1 DeviceRequest, paths
// below v1's requests[i].exactly.
var requestRulesV1beta1 = []declarativeRuleV1beta1{
	// selectors: +k8s:beta=+k8s:maxItems=32; validateSelectorSlice
	// passes sizeCovered. The selectors themselves are handwritten only.
	ruleV1beta1(`selectors`, field.ErrorTypeTooMany, "", nil),
	// allocationMode: +k8s:beta=+k8s:optional and the beta enum;
	// validateDeviceAllocationMode's NotSupported is covered. The
	// optional tag stops at an empty mode (a request without class keeps
	// it empty, see TestVersionDefaultsBeforeConversion), so that
	// NotSupported is the handwritten one, under v1's path.
	ruleV1beta1(`allocationMode`, field.ErrorTypeNotSupported, "", func(e *field.Error) bool {
		return fmt.Sprint(e.BadValue) != ""
	}),
	// tolerations, Validate_DeviceToleration, every tag beta:
	// key a label key, operator required and an enum, effect an enum;
	// validateDeviceToleration covers each of them (the key's
	// ValidateLabelName has the same origin). value and
	// tolerationSeconds are handwritten only.
	ruleV1beta1(`tolerations\[\d+\]\.key`, field.ErrorTypeInvalid, "format=k8s-label-key", nil),
	ruleV1beta1(`tolerations\[\d+\]\.operator`, field.ErrorTypeRequired, "", nil),
	ruleV1beta1(`tolerations\[\d+\]\.operator`, field.ErrorTypeNotSupported, "", nil),
	ruleV1beta1(`tolerations\[\d+\]\.effect`, field.ErrorTypeNotSupported, "", nil),
	// derivedAttributes, standard tags without a handwritten counterpart:
	// at most 32, each with a name (required, fully qualified) and an
	// expression (required). The handwritten rules (unique names, a name
	// used by a constraint, the expression compiles) keep v1's path.
	ruleV1beta1(`derivedAttributes`, field.ErrorTypeTooMany, "", nil),
	ruleV1beta1(`derivedAttributes\[\d+\]\.name`, field.ErrorTypeRequired, "", nil),
	ruleV1beta1(`derivedAttributes\[\d+\]\.name`, field.ErrorTypeInvalid, "format=k8s-resource-fully-qualified-name", nil),
	ruleV1beta1(`derivedAttributes\[\d+\]\.expression`, field.ErrorTypeRequired, "", nil),
}

// deviceRulesV1beta1 are the rules of a v1beta1 BasicDevice, paths below
// v1's spec.devices[i].
var deviceRulesV1beta1 = []declarativeRuleV1beta1{
	// attributes: the beta union of each value, covered in
	// validateDeviceAttribute. The union counts an empty list as unset
	// and the handwritten rule as set, and the handwritten path has a
	// long name shortened, so either may be reported without the other;
	// validateDeviceAttributeV1 words them differently. The strings'
	// maxBytes tag is alpha: handwritten only.
	ruleV1beta1(`attributes\[.*\]`, field.ErrorTypeInvalid, "union", func(e *field.Error) bool {
		return e.Detail != attributeUnionDetailV1
	}),
	// consumesCounters: beta maxItems=2 and unique counterSet
	// (validateSet's sizeCovered, uniquenessCovered);
	// Validate_DeviceCounterConsumption (beta): counterSet required and a
	// short name, counters required with short-name keys, all covered in
	// validateDeviceCounterConsumption; the number of counters is
	// handwritten only. compatibilityGroups has standard tags only (at
	// most 2, short names, unique), no handwritten rule.
	ruleV1beta1(`consumesCounters`, field.ErrorTypeTooMany, "", nil),
	ruleV1beta1(`consumesCounters\[\d+\]`, field.ErrorTypeDuplicate, "", nil),
	ruleV1beta1(`consumesCounters\[\d+\]\.counterSet`, field.ErrorTypeRequired, "", nil),
	ruleV1beta1(`consumesCounters\[\d+\]\.counterSet`, field.ErrorTypeInvalid, "format=k8s-short-name", nil),
	ruleV1beta1(`consumesCounters\[\d+\]\.counters`, field.ErrorTypeRequired, "", nil),
	ruleV1beta1(`consumesCounters\[\d+\]\.counters`, field.ErrorTypeInvalid, "format=k8s-short-name", nil),
	ruleV1beta1(`consumesCounters\[\d+\]\.compatibilityGroups`, field.ErrorTypeTooMany, "", nil),
	ruleV1beta1(`consumesCounters\[\d+\]\.compatibilityGroups\[\d+\]`, field.ErrorTypeInvalid, "format=k8s-short-name", nil),
	ruleV1beta1(`consumesCounters\[\d+\]\.compatibilityGroups\[\d+\]`, field.ErrorTypeDuplicate, "", nil),
	// taints: Validate_DeviceTaint's beta effect, required and an enum,
	// covered in validateDeviceTaint; key, value and the number of
	// taints are handwritten only.
	ruleV1beta1(`taints\[\d+\]\.effect`, field.ErrorTypeRequired, "", nil),
	ruleV1beta1(`taints\[\d+\]\.effect`, field.ErrorTypeNotSupported, "", nil),
	// bindingConditions, bindingFailureConditions: beta maxItems=4,
	// sizeCovered; their items and the rules between them are
	// handwritten only.
	ruleV1beta1(`bindingConditions|bindingFailureConditions`, field.ErrorTypeTooMany, "", nil),
	// nodeAllocatableResources: the standard union of a mapping's
	// capacityKey and deviceMultiplier has no handwritten counterpart;
	// its dependentRequired tags are alpha.
	ruleV1beta1(`nodeAllocatableResources\[.*\]\.mapping`, field.ErrorTypeInvalid, "union", nil),
}

func (r *declarativeRuleV1beta1) matches(e *field.Error, rel string) bool {
	return e.Type == r.typ && (r.origin == "" || e.Origin == r.origin) &&
		r.field.MatchString(rel) && (r.declarative == nil || r.declarative(e))
}

var (
	// v1RequestPath splits the path of an exact request's field into the
	// request (a claim's or a template's), its index and the rest.
	v1RequestPath = regexp.MustCompile(`^((?:spec\.)?spec\.devices\.requests\[(\d+)\])\.exactly\.(.+)$`)
	// v1DevicePath does the same for a slice device's property.
	v1DevicePath = regexp.MustCompile(`^(spec\.devices\[\d+\])\.(.+)$`)
	// firstStep is the name of a path's first field.
	firstStep = regexp.MustCompile(`^[A-Za-z]+`)
)

// v1beta1DeclarativePathsV1 gives the errors of a v1beta1 claim, template
// or slice, validated as the v1 object obj (old: the stored one, nil on
// create), the paths 1.37 reports for them: v1beta1's for the errors of
// the rules above, v1's for the rest. The declarative validation of an
// update skips what the update left unchanged (it compares the field a
// tag is on, in a request matched by name, and a slice's devices as a
// whole); there the error is a handwritten one and keeps v1's path.
func v1beta1DeclarativePathsV1(obj, old runtime.Object, op operation, errs field.ErrorList) field.ErrorList {
	if op == opCreate {
		old = nil
	}
	var (
		rules   []declarativeRuleV1beta1
		split   *regexp.Regexp
		replace string
		// looked says whether the declarative validation looked at the
		// field of a matched error (m: split's submatches, rel: the
		// path below the request or device).
		looked func(m []string, rel string) bool
	)
	switch o := obj.(type) {
	case *resourcev1.ResourceClaim, *resourcev1.ResourceClaimTemplate:
		rules, split, replace = requestRulesV1beta1, v1RequestPath, "%s.%s"
		looked = func(m []string, rel string) bool {
			i, err := strconv.Atoi(m[2])
			return err != nil || requestFieldChangedV1(deviceClaimOfV1(obj), deviceClaimOfV1(old), i, firstStep.FindString(rel))
		}
	case *resourcev1.ResourceSlice:
		rules, split, replace = deviceRulesV1beta1, v1DevicePath, "%s.basic.%s"
		changed := true
		if s, ok := old.(*resourcev1.ResourceSlice); ok {
			changed = !semanticEqual(o.Spec.Devices, s.Spec.Devices)
		}
		looked = func([]string, string) bool { return changed }
	default:
		return errs
	}
	out := make(field.ErrorList, 0, len(errs))
	for _, e := range errs {
		m := split.FindStringSubmatch(e.Field)
		if m == nil {
			out = append(out, e)
			continue
		}
		rel := m[len(m)-1]
		moved := false
		for i := range rules {
			if rules[i].matches(e, rel) {
				moved = looked(m, rel)
				break
			}
		}
		if moved {
			c := *e
			c.Field = fmt.Sprintf(replace, m[1], rel)
			e = &c
		}
		out = append(out, e)
	}
	return out
}

// deviceClaimOfV1 is the device claim of a v1 claim or template, nil for
// anything else.
func deviceClaimOfV1(obj runtime.Object) *resourcev1.DeviceClaim {
	switch o := obj.(type) {
	case *resourcev1.ResourceClaim:
		return &o.Spec.Devices
	case *resourcev1.ResourceClaimTemplate:
		return &o.Spec.Spec.Devices
	}
	return nil
}

// requestFieldChangedV1 says whether the declarative validation looks at
// the field name of the i-th request of claim: always without a stored
// claim or a stored exact request of that name, else when the field
// differs from the stored one.
func requestFieldChangedV1(claim, old *resourcev1.DeviceClaim, i int, name string) bool {
	if claim == nil || old == nil || i >= len(claim.Requests) || claim.Requests[i].Exactly == nil {
		return true
	}
	r := claim.Requests[i]
	o := lookupNamedV1(old.Requests, r.Name, func(r *resourcev1.DeviceRequest) string { return r.Name })
	if o == nil || o.Exactly == nil {
		return true
	}
	n, s := r.Exactly, o.Exactly
	switch name {
	case "selectors":
		return !semanticEqual(n.Selectors, s.Selectors)
	case "allocationMode":
		return n.AllocationMode != s.AllocationMode
	case "tolerations":
		return !semanticEqual(n.Tolerations, s.Tolerations)
	case "derivedAttributes":
		return !semanticEqual(n.DerivedAttributes, s.DerivedAttributes)
	}
	return true
}
