package validation

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	corev1 "k8s.io/api/core/v1"
	resourcev1 "k8s.io/api/resource/v1"
	apioperation "k8s.io/apimachinery/pkg/api/operation"
	"k8s.io/apimachinery/pkg/api/validate"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/drakit/drakit/apis/resource/features"
	drakitv1 "github.com/drakit/drakit/apis/resource/v1"
)

// The live rules: those of Kubernetes 1.37 for the v1 kinds. Every
// function here (and in claim.go, claimstatus.go, class.go and slice.go)
// carries the name of the 1.37 function of pkg/apis/resource/validation
// whose rules it applies, with the suffix V1 (compared with
// k8s.io/kubernetes v1.37.2), as the package documentation describes for
// the alpha versions.
//
// 1.37 validates twice. The handwritten validation (the functions named
// after upstream's) runs first; then the declarative validation generated
// from the +k8s: tags of the v1 types runs, and its errors are added to
// the response (the DeclarativeValidation and DeclarativeValidationBeta
// gates are on by default). A handwritten error that upstream marks as
// covered by declarative validation is dropped when the declarative
// validation reports an error of the same type, origin and path; the
// response then carries the declarative wording. These validators report
// what results:
//
//   - where both report the same rule, the declarative form (a Duplicate
//     names the whole list entry, a driver name is checked with the
//     caseless DNS-subdomain message and its length in characters, a pool
//     name reports "segment i: ...", a fully qualified name checks its
//     domain case-sensitively, attribute unions list the members); the
//     functions say so where it differs from the handwritten form;
//   - rules only the declarative validation has are in functions whose
//     names start with "declarative" (no "validate": upstream has no
//     handwritten counterpart): compatibilityGroups, derivedAttributes'
//     size and names, the capacityKey/deviceMultiplier union of
//     nodeAllocatableResources mappings, partitionTypeAttribute's gate and
//     format, skipNodeOperations values and uniqueness, and the
//     declarative checks of parts the handwritten validation skips (a
//     request with both exactly and firstAvailable, devices of a slice
//     with too many devices, taints beyond their limit);
//   - the declarative validation skips fields an update leaves unchanged
//     ("ratcheting"); a declarativeCoverage parameter says whether it
//     looks at the part being validated.
//
// Alpha declarative rules (+k8s:alpha) are not enforced by 1.37 and are not
// applied. Registry behaviour that produces validation errors (the
// admin-access namespace label) is applied when the environment can look
// up namespaces; authorization checks of status updates are not.
//
// Quirks of 1.37 that Options.Strict rejects: upper-case letters in driver
// names (and in the domain of attribute and capacity names), and qualified
// names with two or more '/', which 1.37 does not check at all.

// The feature gates whose state changes what 1.37 validates:
//   - features.DRAConsumableCapacity: a constraint with neither
//     matchAttribute nor distinctAttribute is Required on the constraint
//     (on) or on matchAttribute (off); CEL sees
//     device.allowMultipleAllocations;
//   - features.DRAListTypeAttributes: CEL types list-valued attributes;
//   - features.DRAFractionalCapacityRange: requestPolicy values are
//     compared as decimals, and ranges with fractions use milli-unit
//     arithmetic;
//   - features.DRAPartitionableDevicesType: a slice's
//     partitionTypeAttribute is Forbidden (off) or must be a fully
//     qualified name (on).
//
// Fields of disabled features are dropped before validation, as the
// registry drops them (DropDisabledFieldsV1, wired in as the rules' drop
// and dropStatus), not rejected here.

// envV1 is what the 1.37 rules need beyond the objects: the feature gates
// (the zero value is the 1.37 defaults), the CEL compiler (nil: only the
// length of expressions is checked) and the namespace lookup of the
// admin-access rule (nil: not checked).
type envV1 struct {
	gates      features.Gates
	compileCEL compileCEL
	// namespaceLabels returns the labels of a namespace, for the
	// admin-access rule of claims and templates; an error is reported as
	// an InternalError, as the registry does when it cannot get the
	// namespace.
	namespaceLabels func(namespace string) (map[string]string, error)
	// fromOptions takes gates and namespaceLabels from the Options of each
	// validation instead: the registered rules are built once, at init.
	fromOptions bool
}

// checkerV1 is the checker with the 1.37 environment.
type checkerV1 struct {
	*checker
	env envV1
}

func (e envV1) on(c *checker) *checkerV1 {
	if e.fromOptions {
		e.gates, e.namespaceLabels = c.opts.FeatureGates, c.opts.NamespaceLabels
	}
	return &checkerV1{checker: c, env: e}
}

func (c *checkerV1) enabled(gate features.Name) bool { return c.env.gates.Enabled(gate) }

// ---------------------------------------------------------------------------
// Rules of the kinds, for the registry.

// rulesV1Set holds the rules of the v1 kinds.
type rulesV1Set struct {
	claim     rules[*resourcev1.ResourceClaim]
	template  rules[*resourcev1.ResourceClaimTemplate]
	class     rules[*resourcev1.DeviceClass]
	slice     rules[*resourcev1.ResourceSlice]
	taintRule rules[*resourcev1.DeviceTaintRule]
}

// rulesV1 returns the 1.37 rules of the v1 kinds with env, one function per
// registry strategy of 1.37. They are not registered here: register needs
// v1 in the catalogue and the scheme.
func rulesV1(env envV1) rulesV1Set {
	return rulesV1Set{
		claim:     claimRulesV1(env),
		template:  templateRulesV1(env),
		class:     classRulesV1(env),
		slice:     sliceRulesV1(env),
		taintRule: taintRuleRulesV1(env),
	}
}

// claimRulesV1 is the ResourceClaim strategy (main resource and status).
func claimRulesV1(env envV1) rules[*resourcev1.ResourceClaim] {
	return rules[*resourcev1.ResourceClaim]{
		namespaced:         true,
		resetMetaForStatus: true,
		defaults:           func(o *resourcev1.ResourceClaim) { drakitv1.SetObjectDefaults_ResourceClaim(o) },
		prepareCreate:      func(o *resourcev1.ResourceClaim) { o.Status = resourcev1.ResourceClaimStatus{} },
		prepareUpdate:      func(o, old *resourcev1.ResourceClaim) { o.Status = old.Status },
		prepareStatus:      func(o, old *resourcev1.ResourceClaim) { o.Spec = old.Spec },
		drop: func(c *checker, o, old *resourcev1.ResourceClaim) []DropWarning {
			return DropDisabledResourceClaimFieldsV1(o, old, env.on(c).env.gates)
		},
		dropStatus: func(c *checker, o, old *resourcev1.ResourceClaim) []DropWarning {
			return DropDisabledResourceClaimStatusFieldsV1(o, old, env.on(c).env.gates)
		},
		create: func(c *checker, o *resourcev1.ResourceClaim) field.ErrorList {
			v := env.on(c)
			errs := v.authorizedForAdminV1(o.Spec.Devices.Requests, o.Namespace)
			return append(errs, v.ValidateResourceClaimV1(o)...)
		},
		// 1.37 validates a claim update only as an update: the spec is
		// immutable and not validated again.
		update: func(c *checker, o, old *resourcev1.ResourceClaim) field.ErrorList {
			return env.on(c).ValidateResourceClaimUpdateV1(o, old)
		},
		status: func(c *checker, o, old *resourcev1.ResourceClaim) field.ErrorList {
			v := env.on(c)
			errs := v.authorizedForAdminStatusV1(allocationResultsV1(o), allocationResultsV1(old), o.Namespace)
			return append(errs, v.ValidateResourceClaimStatusUpdateV1(o, old)...)
		},
	}
}

// templateRulesV1 is the ResourceClaimTemplate strategy.
func templateRulesV1(env envV1) rules[*resourcev1.ResourceClaimTemplate] {
	return rules[*resourcev1.ResourceClaimTemplate]{
		namespaced: true,
		defaults:   func(o *resourcev1.ResourceClaimTemplate) { drakitv1.SetObjectDefaults_ResourceClaimTemplate(o) },
		drop: func(c *checker, o, old *resourcev1.ResourceClaimTemplate) []DropWarning {
			return DropDisabledResourceClaimTemplateFieldsV1(o, old, env.on(c).env.gates)
		},
		create: func(c *checker, o *resourcev1.ResourceClaimTemplate) field.ErrorList {
			v := env.on(c)
			errs := v.authorizedForAdminV1(o.Spec.Spec.Devices.Requests, o.Namespace)
			return append(errs, v.ValidateResourceClaimTemplateV1(o)...)
		},
		// The template strategy validates an update as a create too
		// (the whole spec, its CEL as new expressions) and then as an
		// update.
		update: func(c *checker, o, old *resourcev1.ResourceClaimTemplate) field.ErrorList {
			v := env.on(c)
			errs := v.validateResourceClaimTemplateV1(o, &old.Spec)
			return append(errs, v.ValidateResourceClaimTemplateUpdateV1(o, old)...)
		},
	}
}

// classRulesV1 is the DeviceClass strategy.
func classRulesV1(env envV1) rules[*resourcev1.DeviceClass] {
	return rules[*resourcev1.DeviceClass]{
		prepareCreate: func(o *resourcev1.DeviceClass) { o.Generation = 1 },
		prepareUpdate: func(o, old *resourcev1.DeviceClass) {
			if !semanticEqual(o.Spec, old.Spec) {
				o.Generation = old.Generation + 1
			}
		},
		drop: func(c *checker, o, old *resourcev1.DeviceClass) []DropWarning {
			return DropDisabledDeviceClassFieldsV1(o, old, env.on(c).env.gates)
		},
		create: func(c *checker, o *resourcev1.DeviceClass) field.ErrorList {
			return env.on(c).ValidateDeviceClassV1(o)
		},
		update: func(c *checker, o, old *resourcev1.DeviceClass) field.ErrorList {
			return env.on(c).ValidateDeviceClassUpdateV1(o, old)
		},
	}
}

// sliceRulesV1 is the ResourceSlice strategy.
func sliceRulesV1(env envV1) rules[*resourcev1.ResourceSlice] {
	return rules[*resourcev1.ResourceSlice]{
		defaults:      func(o *resourcev1.ResourceSlice) { drakitv1.SetObjectDefaults_ResourceSlice(o) },
		prepareCreate: func(o *resourcev1.ResourceSlice) { o.Generation = 1 },
		prepareUpdate: func(o, old *resourcev1.ResourceSlice) {
			if !semanticEqual(o.Spec, old.Spec) {
				o.Generation = old.Generation + 1
			}
		},
		drop: func(c *checker, o, old *resourcev1.ResourceSlice) []DropWarning {
			return DropDisabledResourceSliceFieldsV1(o, old, env.on(c).env.gates)
		},
		create: func(c *checker, o *resourcev1.ResourceSlice) field.ErrorList {
			return env.on(c).ValidateResourceSliceV1(o)
		},
		update: func(c *checker, o, old *resourcev1.ResourceSlice) field.ErrorList {
			return env.on(c).ValidateResourceSliceUpdateV1(o, old)
		},
	}
}

// taintRuleRulesV1 is the DeviceTaintRule strategy (main resource and status).
func taintRuleRulesV1(env envV1) rules[*resourcev1.DeviceTaintRule] {
	return rules[*resourcev1.DeviceTaintRule]{
		resetMetaForStatus: true,
		defaults:           func(o *resourcev1.DeviceTaintRule) { drakitv1.SetObjectDefaults_DeviceTaintRule(o) },
		prepareCreate: func(o *resourcev1.DeviceTaintRule) {
			o.Status = resourcev1.DeviceTaintRuleStatus{}
			o.Generation = 1
		},
		prepareUpdate: prepareDeviceTaintRuleUpdateV1,
		// The v1 storage refuses an update without resourceVersion;
		// the one that serves v1alpha3 and v1beta2 keeps their
		// historic unconditional updates.
		unconditionalUpdate: func(version string) bool { return version == "v1alpha3" || version == "v1beta2" },
		prepareStatus:       func(o, old *resourcev1.DeviceTaintRule) { o.Spec = old.Spec },
		create: func(c *checker, o *resourcev1.DeviceTaintRule) field.ErrorList {
			return env.on(c).ValidateDeviceTaintRuleV1(o)
		},
		update: func(c *checker, o, old *resourcev1.DeviceTaintRule) field.ErrorList {
			return env.on(c).ValidateDeviceTaintRuleUpdateV1(o, old)
		},
		status: func(c *checker, o, old *resourcev1.DeviceTaintRule) field.ErrorList {
			return env.on(c).ValidateDeviceTaintRuleStatusUpdateV1(o, old)
		},
	}
}

// register adds the rules and the Lists of the v1 kinds to the registry.
// It panics unless v1 is in the catalogue and the conversion scheme.
func (r rulesV1Set) register() {
	register(r.claim)
	register(r.template)
	register(r.class)
	register(r.slice)
	register(r.taintRule)
	registerList(func(l *resourcev1.ResourceClaimList) []*resourcev1.ResourceClaim { return itemPointers(l.Items) })
	registerList(func(l *resourcev1.ResourceClaimTemplateList) []*resourcev1.ResourceClaimTemplate {
		return itemPointers(l.Items)
	})
	registerList(func(l *resourcev1.DeviceClassList) []*resourcev1.DeviceClass { return itemPointers(l.Items) })
	registerList(func(l *resourcev1.ResourceSliceList) []*resourcev1.ResourceSlice { return itemPointers(l.Items) })
	registerList(func(l *resourcev1.DeviceTaintRuleList) []*resourcev1.DeviceTaintRule { return itemPointers(l.Items) })
}

// prepareDeviceTaintRuleUpdateV1 is the 1.37 strategy's PrepareForUpdate:
// the status is kept, a changed effect gets a new timeAdded unless the
// client changed it too, and a changed spec a new generation.
func prepareDeviceTaintRuleUpdateV1(o, old *resourcev1.DeviceTaintRule) {
	o.Status = old.Status
	if o.Spec.Taint.Effect != old.Spec.Taint.Effect && o.Spec.Taint.TimeAdded.Equal(old.Spec.Taint.TimeAdded) {
		o.Spec.Taint.TimeAdded = &metav1.Time{Time: time.Now().Truncate(time.Second)}
	}
	if !semanticEqual(o.Spec, old.Spec) {
		o.Generation = old.Generation + 1
	}
}

// ---------------------------------------------------------------------------
// Admin access (pkg/registry/resource, run by the claim and template
// strategies before validation).

func allocationResultsV1(claim *resourcev1.ResourceClaim) []resourcev1.DeviceRequestAllocationResult {
	if claim.Status.Allocation == nil {
		return nil
	}
	return claim.Status.Allocation.Devices.Results
}

// authorizedForAdminV1 is 1.37's AuthorizedForAdmin: a request with
// exactly.adminAccess needs the admin-access label on the namespace. The
// error is reported under spec.devices.requests[i].adminAccess for claims
// and templates alike.
func (c *checkerV1) authorizedForAdminV1(requests []resourcev1.DeviceRequest, namespace string) field.ErrorList {
	for i := range requests {
		if e := requests[i].Exactly; e != nil && e.AdminAccess != nil && *e.AdminAccess {
			return c.adminNamespaceV1(namespace, field.NewPath("spec", "devices", "requests").Index(i).Child("adminAccess"))
		}
	}
	return nil
}

// authorizedForAdminStatusV1 is 1.37's AuthorizedForAdminStatus: a status
// update that newly grants admin access needs the label too.
func (c *checkerV1) authorizedForAdminStatusV1(results, oldResults []resourcev1.DeviceRequestAllocationResult, namespace string) field.ErrorList {
	for i := range oldResults {
		if a := oldResults[i].AdminAccess; a != nil && *a {
			return nil
		}
	}
	for i := range results {
		if a := results[i].AdminAccess; a != nil && *a {
			return c.adminNamespaceV1(namespace, field.NewPath("status", "allocation", "devices", "results").Index(i).Child("adminAccess"))
		}
	}
	return nil
}

func (c *checkerV1) adminNamespaceV1(namespace string, p *field.Path) field.ErrorList {
	if c.env.namespaceLabels == nil {
		return nil
	}
	labels, err := c.env.namespaceLabels(namespace)
	if errors.Is(err, ErrNamespaceUnknown) {
		// The caller does not know the namespace: nothing to check
		// against, unlike a lookup that failed.
		return nil
	}
	if err != nil {
		return field.ErrorList{field.InternalError(p, fmt.Errorf("could not retrieve namespace to verify admin access: %w", err))}
	}
	if labels[resourcev1.DRAAdminNamespaceLabelKey] != "true" {
		return field.ErrorList{field.Forbidden(p, fmt.Sprintf("admin access to devices requires the `%s: true` label on the containing namespace", resourcev1.DRAAdminNamespaceLabelKey))}
	}
	return nil
}

// ---------------------------------------------------------------------------
// Lists and maps (1.37 forms).

// The context and operation of the declarative rules (the validate
// functions of k8s.io/apimachinery), which run as a create: the
// update-only rules (immutability, ratcheting) are applied by the callers.
var (
	declarativeCtx = context.Background()
	declarativeOp  = apioperation.Operation{Type: apioperation.Create}
)

// declarativeCoverage says whether 1.37's declarative validation looks at
// the part of the object a rule checks. The handwritten validation always
// runs; the declarative one checks a part that a +k8s: tag covers and that
// the write creates or changes (it skips what an update leaves unchanged).
// Where it does, its rules that have no handwritten counterpart run too,
// and where both report the same error upstream keeps the declarative one
// (MarkCoveredByDeclarative), so the rules report that wording instead.
type declarativeCoverage bool

const (
	// handwrittenOnly: no tag covers the part, or an update leaves it as
	// it was.
	handwrittenOnly declarativeCoverage = false
	// coveredByDeclarative: a tag covers the part and the write creates or
	// changes it.
	coveredByDeclarative declarativeCoverage = true
)

// ifChanged narrows the coverage of a part to one of its items (or
// fields): the declarative validation skips the item unless it is new or
// changed as well.
func (d declarativeCoverage) ifChanged(changed bool) declarativeCoverage {
	return d && declarativeCoverage(changed)
}

// coverageOf is the coverage of a part, by whether the write creates
// (old nil) or changes it.
func coverageOf[T any](v T, old *T) declarativeCoverage {
	return declarativeCoverage(old == nil || !semanticEqual(v, *old))
}

// validateSliceV1 is 1.37's validateSlice: a list longer than max (max < 0:
// no limit) is TooMany and its entries are not validated; otherwise every
// entry is.
func validateSliceV1[T any](items []T, max int, item func(T, *field.Path) field.ErrorList, p *field.Path) field.ErrorList {
	if max >= 0 && len(items) > max {
		return field.ErrorList{field.TooMany(p, len(items), max).WithOrigin("maxItems")}
	}
	var errs field.ErrorList
	for i := range items {
		errs = append(errs, item(items[i], p.Index(i))...)
	}
	return errs
}

// validateSetV1 is 1.37's validateSet: validateSliceV1, then a Duplicate
// for every entry whose key repeats an earlier one. Where the declarative
// validation looks at the list, its uniqueness check reports the
// duplicate, naming the whole entry; the handwritten one names the key.
func validateSetV1[T any, K comparable](items []T, max int, item func(T, *field.Path) field.ErrorList, key func(T) K, declarative declarativeCoverage, p *field.Path) field.ErrorList {
	if max >= 0 && len(items) > max {
		return field.ErrorList{field.TooMany(p, len(items), max).WithOrigin("maxItems")}
	}
	var errs field.ErrorList
	for i := range items {
		errs = append(errs, item(items[i], p.Index(i))...)
	}
	return append(errs, duplicatesV1(items, key, declarative, p)...)
}

func duplicatesV1[T any, K comparable](items []T, key func(T) K, declarative declarativeCoverage, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	seen := make(map[K]bool, len(items))
	for i := range items {
		k := key(items[i])
		if !seen[k] {
			seen[k] = true
			continue
		}
		var value any = k
		if declarative {
			value = items[i]
		}
		errs = append(errs, field.Duplicate(p.Index(i), value))
	}
	return errs
}

// validateMapV1 is 1.37's validateMap: a map with more than max entries
// (max < 0: no limit) is TooMany and nothing else is checked; otherwise
// each key is validated (errors on the map's path) and each value (on the
// key's path, the key shortened to truncateKeyLen by
// truncateIfTooLongV1). Keys are visited in order.
func validateMapV1[K ~string, T any](m map[K]T, max, truncateKeyLen int, key func(K, *field.Path) field.ErrorList, item func(T, *field.Path) field.ErrorList, p *field.Path) field.ErrorList {
	if max >= 0 && len(m) > max {
		return field.ErrorList{field.TooMany(p, len(m), max)}
	}
	var errs field.ErrorList
	for _, k := range sortedKeys(m) {
		errs = append(errs, key(k, p)...)
		if item != nil {
			errs = append(errs, item(m[k], p.Key(truncateIfTooLongV1(string(k), truncateKeyLen)))...)
		}
	}
	return errs
}

// truncateIfTooLongV1 shortens a map key for an error path by replacing
// its middle with "...".
func truncateIfTooLongV1(s string, max int) string {
	if max < v1MapKeyMinTruncation {
		max = v1MapKeyMinTruncation
	}
	if len(s) <= max {
		return s
	}
	const ellipsis = "..."
	remaining := max - len(ellipsis)
	return s[:(remaining+1)/2] + ellipsis + s[len(s)-remaining/2:]
}

// ---------------------------------------------------------------------------
// Names.

// validateDriverNameV1 is 1.37's driver-name rule (the CSI driver-name
// rule): an empty name is Required and nothing else, a name over
// DriverNameMaxLength bytes TooLong, and the lower-cased name must be a DNS
// subdomain. Where the declarative validation looks at the name, it has
// the same rule and its wording is reported: the length in characters and
// the "caseless" subdomain message. Quirk: upper-case letters pass; Strict rejects them.
func (c *checkerV1) validateDriverNameV1(value string, p *field.Path, declarative declarativeCoverage) field.ErrorList {
	if value == "" {
		return field.ErrorList{field.Required(p, "")}
	}
	var errs field.ErrorList
	if len(value) > DriverNameMaxLength {
		// The declarative check counts characters; a name that is too long
		// only in bytes keeps the handwritten error.
		if declarative && utf8.RuneCountInString(value) > DriverNameMaxLength {
			errs = append(errs, validate.MaxLength(declarativeCtx, declarativeOp, p, &value, nil, DriverNameMaxLength)...)
		} else {
			errs = append(errs, field.TooLong(p, "", DriverNameMaxLength))
		}
	}
	if declarative {
		errs = append(errs, validate.LongNameCaseless(declarativeCtx, declarativeOp, p, &value, nil)...)
	} else {
		for _, msg := range c.lowerSubdomainMessages(value) {
			errs = append(errs, field.Invalid(p, value, msg))
		}
	}
	if c.opts.Strict && strings.ToLower(value) != value {
		errs = append(errs, field.Invalid(p, value, strictDetail("must be lower case", string(c.release))))
	}
	return errs
}

// lowerSubdomainMessages is IsDNS1123Subdomain of the lower-cased value,
// remembered: a ResourceSlice repeats its domains in every attribute name.
func (c *checkerV1) lowerSubdomainMessages(value string) []string {
	lower := strings.ToLower(value)
	msgs, ok := c.subdomainMessages[lower]
	if !ok {
		msgs = validation.IsDNS1123Subdomain(lower)
		if c.subdomainMessages == nil {
			c.subdomainMessages = map[string][]string{}
		}
		c.subdomainMessages[lower] = msgs
	}
	return msgs
}

// validatePoolNameV1 checks a pool name: required, at most
// V1PoolNameMaxLength bytes, every '/'-separated part a DNS subdomain
// (reported with the part as the value).
func validatePoolNameV1(name string, p *field.Path) field.ErrorList {
	if name == "" {
		return field.ErrorList{field.Required(p, "")}
	}
	const origin = "format=k8s-resource-pool-name"
	var errs field.ErrorList
	if len(name) > V1PoolNameMaxLength {
		errs = append(errs, field.TooLong(p, "", V1PoolNameMaxLength).WithOrigin(origin))
	}
	for _, part := range strings.Split(name, "/") {
		for _, msg := range validation.IsDNS1123Subdomain(part) {
			errs = append(errs, field.Invalid(p, part, msg).WithOrigin(origin))
		}
	}
	return errs
}

// declarativePoolNameV1 is the pool-name rule of the declarative
// validation (format k8s-resource-pool-name), which replaces
// validatePoolNameV1 where 1.37 marks it covered: the whole name is the
// value and each message names its segment.
func declarativePoolNameV1(name string, p *field.Path) field.ErrorList {
	if name == "" {
		return field.ErrorList{field.Required(p, "")}
	}
	return validate.ResourcePoolName(declarativeCtx, declarativeOp, p, &name, nil)
}

// validateUIDV1 checks a shareID: 36 characters, lower-case hexadecimal in
// 8-4-4-4-12 groups. Every use is covered by the declarative format
// k8s-uuid, whose message 1.37 reports where the declarative validation
// looks at the ID; otherwise the handwritten message names what
// github.com/google/uuid's Validate found.
func validateUIDV1(uid string, p *field.Path, declarative declarativeCoverage) field.ErrorList {
	if declarative {
		return validate.UUID(declarativeCtx, declarativeOp, p, &uid, nil)
	}
	if err := uuidProblemV1(uid); err != "" {
		return field.ErrorList{field.Invalid(p, uid, "error validating uid: "+err).WithOrigin("format=k8s-uuid")}
	}
	if len(uid) != 36 || uid != strings.ToLower(uid) {
		return field.ErrorList{field.Invalid(p, uid, "uid must be in RFC 4122 normalized form, `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` with lowercase hexadecimal characters").WithOrigin("format=k8s-uuid")}
	}
	return nil
}

// uuidProblemV1 is what google/uuid's Validate (v1.6.0) says about s, ""
// if it accepts it: the standard form, with a "urn:uuid:" prefix, in
// braces, or 32 hexadecimal digits.
func uuidProblemV1(s string) string {
	hex := func(s string) bool {
		for _, c := range s {
			if !strings.ContainsRune("0123456789abcdefABCDEF", c) {
				return false
			}
		}
		return true
	}
	switch len(s) {
	case 36:
	case 36 + 9:
		if !strings.EqualFold(s[:9], "urn:uuid:") {
			return fmt.Sprintf("invalid urn prefix: %q", s[:9])
		}
		s = s[9:]
	case 36 + 2:
		if s[0] != '{' || s[len(s)-1] != '}' {
			return "invalid bracketed UUID format"
		}
		s = s[1 : len(s)-1]
	case 32:
		if !hex(s) {
			return "invalid UUID format"
		}
		return ""
	default:
		return fmt.Sprintf("invalid UUID length: %d", len(s))
	}
	if s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' ||
		!hex(s[:8]+s[9:13]+s[14:18]+s[19:23]+s[24:]) {
		return "invalid UUID format"
	}
	return ""
}

// validateQualifiedNameV1 checks an attribute or capacity name: a C
// identifier of at most V1IdentifierMaxLength bytes, optionally after a
// domain (the driver-name rule) and one '/'. Errors are reported on p, the
// map. Quirk: names with two or more '/' are not checked at all (a TODO in
// 1.37); Strict rejects them.
func (c *checkerV1) validateQualifiedNameV1(name string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	parts := strings.Split(name, "/")
	switch len(parts) {
	case 1:
		errs = append(errs, validateCIdentifierV1(parts[0], p)...)
	case 2:
		if parts[0] == "" {
			errs = append(errs, field.Invalid(p, "", "the domain must not be empty"))
		} else {
			errs = append(errs, c.validateDriverNameV1(parts[0], p, handwrittenOnly)...)
		}
		if parts[1] == "" {
			errs = append(errs, field.Invalid(p, "", "the name must not be empty"))
		} else {
			errs = append(errs, validateCIdentifierV1(parts[1], p)...)
		}
	default:
		errs = append(errs, c.strictSlashesV1(name, p)...)
	}
	return errs
}

func (c *checkerV1) strictSlashesV1(name string, p *field.Path) field.ErrorList {
	if !c.opts.Strict || strings.Count(name, "/") <= V1QualifiedNameMaxSlashes {
		return nil
	}
	return field.ErrorList{field.Invalid(p, name, strictDetail(
		fmt.Sprintf("must be an identifier, optionally prefixed by a domain and '/', with at most %d '/'", V1QualifiedNameMaxSlashes),
		string(c.release)))}
}

// validateFullyQualifiedNameV1 checks matchAttribute and distinctAttribute:
// a qualified name that must have a domain. Where the declarative
// validation looks at it, its format k8s-resource-fully-qualified-name is
// reported instead (1.37 covers the handwritten check with it): it checks
// the domain as a case-sensitive DNS subdomain (so "Example.com/x" is
// Invalid) and words the empty parts "prefix must not be empty" and "name
// must not be empty".
func (c *checkerV1) validateFullyQualifiedNameV1(name string, p *field.Path, declarative declarativeCoverage) field.ErrorList {
	var errs field.ErrorList
	if declarative {
		errs = validate.ResourceFullyQualifiedName(declarativeCtx, declarativeOp, p, &name, nil)
		return append(errs, c.strictSlashesV1(name, p)...)
	}
	errs = c.validateQualifiedNameV1(name, p)
	if !strings.Contains(name, "/") {
		errs = append(errs, field.Invalid(p, name, "a fully qualified name must be a domain and a name separated by a slash"))
	}
	return errs.WithOrigin("format=k8s-resource-fully-qualified-name")
}

// validateCIdentifierV1 checks the identifier of a qualified name.
func validateCIdentifierV1(id string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if len(id) > V1IdentifierMaxLength {
		errs = append(errs, field.TooLong(p, "", V1IdentifierMaxLength))
	}
	for _, msg := range validation.IsCIdentifier(id) {
		errs = append(errs, field.Invalid(p, id, msg))
	}
	return errs
}

// shortNameV1 checks a DNS label. Where 1.37's declarative format
// k8s-short-name covers the check, its wording is reported: a label that
// is too long "may be no more than 63 bytes", not characters.
func shortNameV1(value string, p *field.Path, declarative declarativeCoverage) field.ErrorList {
	if declarative {
		return validate.ShortName(declarativeCtx, declarativeOp, p, &value, nil)
	}
	return dnsLabel(value, p)
}

// longNameV1 is shortNameV1 for DNS subdomains (format k8s-long-name).
func longNameV1(value string, p *field.Path, declarative declarativeCoverage) field.ErrorList {
	if declarative {
		return validate.LongName(declarativeCtx, declarativeOp, p, &value, nil)
	}
	return dnsSubdomain(value, p)
}

// validateNodeNameV1 checks a node name (a DNS subdomain).
func validateNodeNameV1(name string, p *field.Path) field.ErrorList {
	return dnsSubdomain(name, p)
}

// validateLabelValueV1 checks a taint or toleration value.
func validateLabelValueV1(value string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range validation.IsValidLabelValue(value) {
		errs = append(errs, field.Invalid(p, value, msg))
	}
	return errs
}

// nodeSelectorV1 is 1.37's core ValidateNodeSelector (without invalid
// label values allowed): the rules of nodeSelector plus a label-value check
// of every matchExpressions value.
func nodeSelectorV1(sel *corev1.NodeSelector, p *field.Path) field.ErrorList {
	errs := nodeSelector(sel, p)
	for i, term := range sel.NodeSelectorTerms {
		for j, req := range term.MatchExpressions {
			vp := p.Child("nodeSelectorTerms").Index(i).Child("matchExpressions").Index(j).Child("values")
			for k, v := range req.Values {
				for _, msg := range validation.IsValidLabelValue(v) {
					errs = append(errs, field.Invalid(vp.Index(k), v, msg).WithOrigin("format=k8s-label-value"))
				}
			}
		}
	}
	return errs
}

// validateRawExtensionV1 checks opaque parameters and device status data:
// required, at most max bytes unless stored (not parsed when too long),
// valid JSON, not null, a JSON object. A Go caller may have set Object
// instead of Raw; the server would see Object encoded as JSON, so that is
// what is checked then.
func validateRawExtensionV1(ext runtime.RawExtension, p *field.Path, stored bool, max int) field.ErrorList {
	raw := ext.Raw
	if len(raw) == 0 && ext.Object != nil {
		encoded, err := json.Marshal(ext.Object)
		if err != nil {
			return field.ErrorList{field.Invalid(p, "<value omitted>", fmt.Sprintf("error encoding the object: %v", err))}
		}
		raw = encoded
	}
	var v any
	switch {
	case len(raw) == 0:
		return field.ErrorList{field.Required(p, "")}
	case !stored && len(raw) > max:
		return field.ErrorList{field.TooLong(p, "", max)}
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return field.ErrorList{field.Invalid(p, "<value omitted>", fmt.Sprintf("error parsing data as JSON: %v", err.Error()))}
	}
	if v == nil {
		return field.ErrorList{field.Required(p, "")}
	}
	if _, ok := v.(map[string]any); !ok {
		return field.ErrorList{field.Invalid(p, "<value omitted>", "must be a valid JSON object")}
	}
	return nil
}
