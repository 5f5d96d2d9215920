package validation

import (
	"reflect"
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/api/validation/path"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// release names the Kubernetes release whose rules apply ("1.30"), for
// messages. It is the catalogue's Rules of the object's version.
type release string

// checker carries what every rule needs: the options and the release. The
// rules are its methods, or plain functions where they need neither.
type checker struct {
	opts    Options
	release release
	cel     compileCEL
	// subdomainMessages remembers the DNS-subdomain verdict per driver
	// name: a ResourceSlice repeats the same domain in thousands of
	// attribute names.
	subdomainMessages map[string][]string
}

// ---------------------------------------------------------------------------
// Names.

// dnsSubdomain reports value if it is not an RFC 1123 subdomain (used for
// object, class, node and instance names). An empty value is Invalid, not
// Required, as in the releases.
func dnsSubdomain(value string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range validation.IsDNS1123Subdomain(value) {
		errs = append(errs, field.Invalid(p, value, msg))
	}
	return errs
}

// dnsLabel reports value if it is not an RFC 1123 label (device and request
// names).
func dnsLabel(value string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range validation.IsDNS1123Label(value) {
		errs = append(errs, field.Invalid(p, value, msg))
	}
	return errs
}

// namespaceName reports value if it is not a valid namespace name.
func namespaceName(value string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range apimachineryvalidation.ValidateNamespaceName(value, false) {
		errs = append(errs, field.Invalid(p, value, msg))
	}
	return errs
}

// validateDriverName applies the driver-name rule of every release (the
// rule for CSI driver names; 1.26 and 1.30 call it
// validateResourceDriverName): required, at most DriverNameMaxLength bytes,
// and a DNS subdomain once lower-cased. An empty name therefore gets both
// Required and Invalid, as on the servers. Quirk: because only the
// lower-cased value is checked, upper-case letters are accepted; Strict
// rejects them.
func (c *checker) validateDriverName(value string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if value == "" {
		errs = append(errs, field.Required(p, ""))
	}
	if len(value) > DriverNameMaxLength {
		errs = append(errs, tooLongString(p, value, DriverNameMaxLength))
	}
	lower := strings.ToLower(value)
	msgs, ok := c.subdomainMessages[lower]
	if !ok {
		msgs = validation.IsDNS1123Subdomain(lower)
		if c.subdomainMessages == nil {
			c.subdomainMessages = map[string][]string{}
		}
		c.subdomainMessages[lower] = msgs
	}
	for _, msg := range msgs {
		errs = append(errs, field.Invalid(p, value, msg))
	}
	if c.opts.Strict && lower != value {
		errs = append(errs, field.Invalid(p, value, strictDetail("must be lower case", string(c.release))))
	}
	return errs
}

// semverPattern accepts exactly the versions of semver.org 2.0.0:
// MAJOR.MINOR.PATCH without leading zeros, an optional pre-release of
// dot-separated identifiers (numeric ones without leading zeros) and
// optional dot-separated build metadata.
var semverPattern = func() *regexp.Regexp {
	const (
		number     = `(?:0|[1-9][0-9]*)`
		preRelease = `(?:0|[1-9][0-9]*|[0-9]*[A-Za-z-][0-9A-Za-z-]*)`
		build      = `[0-9A-Za-z-]+`
	)
	return regexp.MustCompile(`^` + number + `\.` + number + `\.` + number +
		`(?:-` + preRelease + `(?:\.` + preRelease + `)*)?` +
		`(?:\+` + build + `(?:\.` + build + `)*)?$`)
}()

const semverMessage = "must be a string compatible with semver.org spec 2.0.0"

// ---------------------------------------------------------------------------
// Object metadata.

// objectMeta validates the metadata of an object being created: the name
// (every kind of this group uses DNS-subdomain names), the namespace
// (required exactly for namespaced kinds), labels, annotations, owner
// references, finalizers and managed fields, plus the rule of the core API
// group that a finalizer without a '/' must be one of the standard ones.
func objectMeta(meta *metav1.ObjectMeta, namespaced bool) field.ErrorList {
	p := field.NewPath("metadata")
	errs := apimachineryvalidation.ValidateObjectMeta(meta, namespaced, apimachineryvalidation.NameIsDNSSubdomain, p)
	return append(errs, standardFinalizers(meta.Finalizers, p.Child("finalizers"))...)
}

// objectMetaUpdate validates metadata changes: immutable name, namespace,
// uid and timestamps, generation not decremented, no new finalizers while
// deleting, plus the checks of labels and annotations of the new object.
func objectMetaUpdate(meta, old *metav1.ObjectMeta) field.ErrorList {
	p := field.NewPath("metadata")
	errs := apimachineryvalidation.ValidateObjectMetaUpdate(meta, old, p)
	return append(errs, standardFinalizers(meta.Finalizers, p.Child("finalizers"))...)
}

// genericMetaUpdate is what the API server checks on every update before
// the kind's own validation: the metadata as on create, but with the name
// checked only as a URL path segment, and the update rules.
func genericMetaUpdate(meta, old *metav1.ObjectMeta, namespaced bool) field.ErrorList {
	p := field.NewPath("metadata")
	errs := apimachineryvalidation.ValidateObjectMeta(meta, namespaced, path.ValidatePathSegmentName, p)
	return append(errs, apimachineryvalidation.ValidateObjectMetaUpdate(meta, old, p)...)
}

// standardFinalizerNames are the finalizers that may be written without a
// domain prefix.
var standardFinalizerNames = map[string]bool{
	"kubernetes":                     true,
	metav1.FinalizerOrphanDependents: true,
	metav1.FinalizerDeleteDependents: true,
}

func standardFinalizers(finalizers []string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, f := range finalizers {
		if !strings.Contains(f, "/") && !standardFinalizerNames[f] {
			errs = append(errs, field.Invalid(p.Index(i), f, "name is neither a standard finalizer name nor is it fully qualified"))
		}
	}
	return errs
}

// templateMetaAllowed are the ObjectMeta fields a claim template may set for
// the claims made from it.
var templateMetaAllowed = map[string]bool{"Labels": true, "Annotations": true}

// templateMeta validates the metadata inside a ResourceClaimTemplate spec:
// valid labels and annotations, and no other field set. The forbidden
// field is named by its Go field name with the first letter lower-cased,
// as the releases do (so the UID is reported as "uID").
func templateMeta(meta *metav1.ObjectMeta, p *field.Path) field.ErrorList {
	errs := apimachineryvalidation.ValidateAnnotations(meta.Annotations, p.Child("annotations"))
	errs = append(errs, metav1validation.ValidateLabels(meta.Labels, p.Child("labels"))...)
	v := reflect.ValueOf(*meta)
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if templateMetaAllowed[f.Name] || v.Field(i).IsZero() {
			continue
		}
		r, n := utf8.DecodeRuneInString(f.Name)
		errs = append(errs, field.Forbidden(p.Child(string(unicode.ToLower(r))+f.Name[n:]), "cannot be set"))
	}
	return errs
}

// ---------------------------------------------------------------------------
// Node selectors (core/v1 rules).

// nodeSelector validates a core/v1 NodeSelector: at least one term, and
// every matchExpressions and matchFields requirement valid.
func nodeSelector(sel *corev1.NodeSelector, p *field.Path) field.ErrorList {
	termsPath := p.Child("nodeSelectorTerms")
	if len(sel.NodeSelectorTerms) == 0 {
		return field.ErrorList{field.Required(termsPath, "must have at least one node selector term")}
	}
	var errs field.ErrorList
	for i, term := range sel.NodeSelectorTerms {
		tp := termsPath.Index(i)
		for j, req := range term.MatchExpressions {
			errs = append(errs, nodeSelectorRequirement(req, tp.Child("matchExpressions").Index(j))...)
		}
		for j, req := range term.MatchFields {
			errs = append(errs, nodeFieldRequirement(req, tp.Child("matchFields").Index(j))...)
		}
	}
	return errs
}

func nodeSelectorRequirement(req corev1.NodeSelectorRequirement, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	switch req.Operator {
	case corev1.NodeSelectorOpIn, corev1.NodeSelectorOpNotIn:
		if len(req.Values) == 0 {
			errs = append(errs, field.Required(p.Child("values"), "must be specified when `operator` is 'In' or 'NotIn'"))
		}
	case corev1.NodeSelectorOpExists, corev1.NodeSelectorOpDoesNotExist:
		if len(req.Values) > 0 {
			errs = append(errs, field.Forbidden(p.Child("values"), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"))
		}
	case corev1.NodeSelectorOpGt, corev1.NodeSelectorOpLt:
		if len(req.Values) != 1 {
			errs = append(errs, field.Required(p.Child("values"), "must be specified single value when `operator` is 'Lt' or 'Gt'"))
		}
	default:
		errs = append(errs, field.Invalid(p.Child("operator"), req.Operator, "not a valid selector operator"))
	}
	return append(errs, metav1validation.ValidateLabelName(req.Key, p.Child("key"))...)
}

// nodeFieldRequirement validates a matchFields requirement: only
// metadata.name with In or NotIn and exactly one value, a node name.
func nodeFieldRequirement(req corev1.NodeSelectorRequirement, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	switch req.Operator {
	case corev1.NodeSelectorOpIn, corev1.NodeSelectorOpNotIn:
		if len(req.Values) != 1 {
			errs = append(errs, field.Required(p.Child("values"), "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"))
		}
	default:
		errs = append(errs, field.Invalid(p.Child("operator"), req.Operator, "not a valid selector operator"))
	}
	if req.Key != metav1.ObjectNameField {
		errs = append(errs, field.Invalid(p.Child("key"), req.Key, "not a valid field selector key"))
		return errs
	}
	for i, v := range req.Values {
		errs = append(errs, dnsSubdomain(v, p.Child("values").Index(i))...)
	}
	return errs
}

// ---------------------------------------------------------------------------
// Lists.

// The releases check lists in two ways. Up to 1.30 a "set" is walked once:
// a repeated entry is reported as Duplicate and not validated again. From
// 1.31 every entry is validated first, then the length, then duplicates.

// validateSliceIsASet validates a list of unique strings the 1.26/1.30
// way.
func validateSliceIsASet(items []string, max int, item func(string, *field.Path) field.ErrorList, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	seen := make(map[string]bool, len(items))
	for i, v := range items {
		if seen[v] {
			errs = append(errs, field.Duplicate(p.Index(i), v))
			continue
		}
		seen[v] = true
		errs = append(errs, item(v, p.Index(i))...)
	}
	if len(items) > max {
		errs = append(errs, tooLongMax(p, len(items), max))
	}
	return errs
}

// validateSlice validates every entry of a list, then its length (max < 0
// means no limit): the 1.31 list rule.
func validateSlice[T any](items []T, max int, item func(T, *field.Path) field.ErrorList, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i := range items {
		errs = append(errs, item(items[i], p.Index(i))...)
	}
	if max >= 0 && len(items) > max {
		errs = append(errs, tooLongMax(p, len(items), max))
	}
	return errs
}

// validateSet is the 1.31 set rule: validateSlice, then a Duplicate for
// every entry whose key repeated an earlier one, reported on the entry or,
// when keyField is not empty, on that field of the entry.
func validateSet[T any, K comparable](items []T, max int, item func(T, *field.Path) field.ErrorList, key func(T) K, keyField string, p *field.Path) field.ErrorList {
	errs := validateSlice(items, max, item, p)
	seen := make(map[K]bool, len(items))
	for i := range items {
		k := key(items[i])
		if seen[k] {
			dp := p.Index(i)
			if keyField != "" {
				dp = dp.Child(keyField)
			}
			errs = append(errs, field.Duplicate(dp, k))
			continue
		}
		seen[k] = true
	}
	return errs
}

func self[T any](v T) T { return v }

// sortedKeys returns the keys of m in order, so that errors about map
// entries come out in a stable order.
func sortedKeys[K ~string, V any](m map[K]V) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	return keys
}

// ---------------------------------------------------------------------------
// Shared claim rules.

// immutable reports a change of a field that may not change.
func immutable(value, old any, p *field.Path) field.ErrorList {
	return apimachineryvalidation.ValidateImmutableField(value, old, p)
}

func semanticEqual(a, b any) bool { return apiequality.Semantic.DeepEqual(a, b) }

// parametersRef checks a reference to a parameters object (claim or class
// parameters, and generatedFrom): kind and name are required.
func parametersRef(kind, name string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if kind == "" {
		errs = append(errs, field.Required(p.Child("kind"), ""))
	}
	if name == "" {
		errs = append(errs, field.Required(p.Child("name"), ""))
	}
	return errs
}

// validateResourceClaimUserReference checks one status.reservedFor entry,
// the same in every release.
func validateResourceClaimUserReference(resource, name, uid string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if resource == "" {
		errs = append(errs, field.Required(p.Child("resource"), ""))
	}
	if name == "" {
		errs = append(errs, field.Required(p.Child("name"), ""))
	}
	if uid == "" {
		errs = append(errs, field.Required(p.Child("uid"), ""))
	}
	return errs
}

// validateResourceClaimConsumers checks status.reservedFor as 1.26 and
// 1.30 do: a repeated uid is a Duplicate (on the uid) and not checked
// further, every other entry needs resource, name and uid.
func validateResourceClaimConsumers[T any](refs []T, max int, fields func(T) (resource, name, uid string), p *field.Path) field.ErrorList {
	var errs field.ErrorList
	seen := make(map[string]bool, len(refs))
	for i, r := range refs {
		resource, name, uid := fields(r)
		if seen[uid] {
			errs = append(errs, field.Duplicate(p.Index(i).Child("uid"), uid))
			continue
		}
		seen[uid] = true
		errs = append(errs, validateResourceClaimUserReference(resource, name, uid, p.Index(i))...)
	}
	if len(refs) > max {
		errs = append(errs, tooLongMax(p, len(refs), max))
	}
	return errs
}

// claimState is what the status invariants of a ResourceClaim look at, the
// same in every version.
type claimState[C comparable] struct {
	allocated             bool
	reservedFor           []C
	deallocationRequested bool
}

// claimStatusInvariants checks the transitions of a claim's status from old
// to now:
//   - reservedFor needs an allocation;
//   - while the claim is being deleted or deallocated, reservedFor may
//     shrink but gain no entry;
//   - deallocation cannot be requested while reservedFor is not empty;
//   - deallocationRequested needs an allocation (reported on "status");
//   - deallocationRequested cannot be cleared while the allocation remains.
//
// The version-specific rules (shareable, immutable allocation) are checked
// by the callers.
func claimStatusInvariants[C comparable](now, old claimState[C], deleting bool, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if len(now.reservedFor) > 0 {
		if !now.allocated {
			errs = append(errs, field.Forbidden(p.Child("reservedFor"), "may not be specified when `allocated` is not set"))
		} else if deleting || now.deallocationRequested {
			before := make(map[C]bool, len(old.reservedFor))
			for _, c := range old.reservedFor {
				before[c] = true
			}
			for _, c := range now.reservedFor {
				if !before[c] {
					errs = append(errs, field.Forbidden(p.Child("reservedFor"), "new entries may not be added while `deallocationRequested` or `deletionTimestamp` are set"))
					break
				}
			}
		}
	}
	return errs
}

// deallocationInvariants are the checks of deallocationRequested; they come
// after the allocation checks in every release.
func deallocationInvariants[C comparable](now, old claimState[C], p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if !old.deallocationRequested && now.deallocationRequested && len(now.reservedFor) > 0 {
		errs = append(errs, field.Forbidden(p.Child("deallocationRequested"), "deallocation cannot be requested while `reservedFor` is set"))
	}
	if !now.allocated && now.deallocationRequested {
		errs = append(errs, field.Forbidden(p, "`allocation` must be set when `deallocationRequested` is set"))
	}
	if old.deallocationRequested && !now.deallocationRequested && now.allocated {
		errs = append(errs, field.Forbidden(p.Child("deallocationRequested"), "may not be cleared when `allocation` is set"))
	}
	return errs
}

// validatePodSchedulingClaims checks status.resourceClaims of a scheduling
// context, the same in every release; unsuitable checks the
// unsuitableNodes of entry i (validatePodSchedulingClaim, whose list rule
// changed in 1.31). The releases report these entries under
// "status.claims", not under the field's JSON name; that path is kept so
// that errors match the servers.
func validatePodSchedulingClaims(names []string, unsuitable func(i int, p *field.Path) field.ErrorList) field.ErrorList {
	p := field.NewPath("status", "claims")
	var errs field.ErrorList
	seen := make(map[string]bool, len(names))
	for i, name := range names {
		errs = append(errs, unsuitable(i, p.Index(i))...)
		if seen[name] {
			errs = append(errs, field.Duplicate(p.Index(i), name))
		} else {
			seen[name] = true
		}
	}
	return errs
}

// strictSelectedNode is the Strict check of spec.selectedNode, which no
// release validates.
func (c *checker) strictSelectedNode(node string) field.ErrorList {
	if !c.opts.Strict || node == "" {
		return nil
	}
	var errs field.ErrorList
	for _, e := range dnsSubdomain(node, field.NewPath("spec", "selectedNode")) {
		e.Detail = strictDetail(e.Detail, string(c.release))
		errs = append(errs, e)
	}
	return errs
}
