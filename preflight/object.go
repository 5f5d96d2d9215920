package preflight

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/catalogue"
	"github.com/drakit/drakit/apis/resource/features"
	"github.com/drakit/drakit/apis/resource/validation"
	"github.com/drakit/drakit/conversion"
)

// Checker checks objects for a move from release From to release To.
type Checker struct {
	// From is the release the cluster runs (0: unknown, for manifests
	// without --from; the checks that compare both releases are then
	// left out).
	From int
	// To is the target release.
	To int
	// Live says that the objects are a cluster's stored objects, not
	// manifests about to be written: their validation is that of their
	// next update, and a field the target drops is kept on update while the
	// object uses it.
	Live bool
}

// gatesOf are the default feature gates of release minor as drakit has
// them: a release before features.OldestRelease has no gates drakit
// knows (its rules are frozen), one after the followed release those of
// the followed release (nothing newer is known). DynamicResourceAllocation
// is on: it gates no field, and a cluster that uses DRA has it on.
func gatesOf(minor int) (features.Gates, bool) {
	if minor < features.OldestRelease {
		return features.Gates{}, false
	}
	g, err := features.ReleaseDefaults(min(minor, catalogue.Release))
	if err != nil {
		return features.Gates{}, false
	}
	return g.With(features.DynamicResourceAllocation, true), true
}

// CheckObject checks one resource.k8s.io object: a typed versioned
// object of a manifest (its apiVersion matters), or, with Live, a hub
// object as the cluster holds it. name is how findings name it.
func (c Checker) CheckObject(obj runtime.Object, name string) []Finding {
	gvk := obj.GetObjectKind().GroupVersionKind()
	var hub string
	var err error
	if c.Live {
		// A hub object (hubclient's may say apiVersion
		// resource.k8s.io/__internal, or nothing): its kind is its Go
		// type's.
		kinds, _, kerr := conversion.Scheme.ObjectKinds(obj)
		if kerr != nil || len(kinds) == 0 || kinds[0].Version != runtime.APIVersionInternal {
			return []Finding{{Severity: Breaking, Check: CheckValidation, Object: name, Why: fmt.Sprintf("not a hub object of %s (%T)", resource.GroupName, obj), Do: "report a bug: drakit reads a cluster's objects as hub objects"}}
		}
		hub = kinds[0].Kind
	} else if hub, err = conversion.HubKind(gvk); err != nil {
		return []Finding{{Severity: Breaking, Check: CheckValidation, Object: name, Why: err.Error(), Do: "fix the apiVersion and kind"}}
	}
	apiVersion := ""
	if !c.Live {
		apiVersion = gvk.GroupVersion().String()
	}
	base := Finding{Object: name, APIVersion: apiVersion, Release: rel(c.To)}
	var out []Finding
	served := catalogue.ServedIn(hub, c.To)
	if len(served) == 0 {
		f := base
		f.Severity, f.Check = Breaking, CheckKindGone
		f.Why = fmt.Sprintf("%s has no %s in any version of resource.k8s.io", rel(c.To), hub)
		f.Do = "leave it out on " + rel(c.To) + ": docs/migration.md says what, if anything, replaces it"
		return append(out, f)
	}
	preferred, _ := catalogue.PreferredIn(hub, c.To)
	if !c.Live {
		out = append(out, c.checkVersion(base, hub, gvk.Version, preferred)...)
	}
	target := preferred.Version.GroupVersion()
	converted, err := conversion.Convert(obj, target)
	if err != nil {
		f := base
		f.Severity, f.Check = Breaking, CheckLostFields
		f.Why = fmt.Sprintf("cannot be converted to %s: %v", target, err)
		f.Do = "fix the object so that it converts (drakit convert names the field)"
		return append(out, f)
	}
	if lost := stashedFields(obj, converted); len(lost) > 0 {
		f := base
		f.Severity, f.Check = Breaking, CheckLostFields
		f.Path = strings.Join(lost, ", ")
		f.Why = fmt.Sprintf("%s cannot say these fields of a %s: %s keeps nothing of them", target, hub, rel(c.To))
		f.Do = "say it the target's way, or accept losing it (drakit convert keeps it in the conversion.drakit.io/stash annotation for the way back); docs/conversion.md maps every field"
		if c.Live {
			f.Severity = Warning
			f.Why = fmt.Sprintf("%s cannot say these fields of the %s, which the cluster holds", target, hub)
		}
		out = append(out, f)
	}
	out = append(out, c.checkContent(base, converted)...)
	// The hub object, for the checks that read one: converted once, and
	// only when one asks.
	hubOf := sync.OnceValues(func() (runtime.Object, error) { return conversion.ToHub(obj) })
	out = append(out, c.checkSemantics(base, hubOf)...)
	out = append(out, c.checkAllocationTimestamp(base, hubOf)...)
	return out
}

// checkAllocationTimestamp reports a claim allocated without
// status.allocation.allocationTimestamp where the target's scheduler adds
// one when it reserves the claim for a pod: with DRADeviceBindingConditions
// and DRAResourceClaimDeviceStatus on (the defaults from 1.36), the DRA
// plugin's PreBind sets the timestamp in the same update as the
// reservation, the API server refuses the change of the allocation
// (status.allocation cannot be modified once set), and a pod that is not
// yet among the claim's consumers fails on every attempt (observed on a
// real 1.37.2 scheduler: hack/e2e/scheduler, allocated-without-timestamp).
// Schedulers before 1.36, with the gate off by default, wrote no timestamp;
// a move between two releases that both add it changes nothing.
func (c Checker) checkAllocationTimestamp(base Finding, hubOf func() (runtime.Object, error)) []Finding {
	addsTimestamp := func(minor int) bool {
		gates, ok := gatesOf(minor)
		return ok && gates.Enabled(features.DRADeviceBindingConditions) && gates.Enabled(features.DRAResourceClaimDeviceStatus)
	}
	if !addsTimestamp(c.To) || c.From != 0 && addsTimestamp(c.From) {
		// Not on the target, or already so on the cluster's release: not
		// something the move changes.
		return nil
	}
	hub, err := hubOf()
	if err != nil {
		return nil
	}
	claim, ok := hub.(*resource.ResourceClaim)
	if !ok || claim.Status.Allocation == nil || claim.Status.Allocation.AllocationTimestamp != nil {
		return nil
	}
	f := base
	f.Severity, f.Check, f.Path = Warning, CheckSemantics, "status.allocation.allocationTimestamp"
	f.Why = fmt.Sprintf("the claim is allocated without an allocation timestamp (by a scheduler before 1.36, or another program): on %s the scheduler adds one when it reserves the claim for a pod, the API server refuses that change of the allocation, and every pod not yet in status.reservedFor fails to schedule on every attempt", rel(c.To))
	f.Do = "start the pods that will share the claim before the upgrade; after it, a claim new pods must share has to be allocated again (stop its pods so that it is deallocated); drakit describe pod names the pods that fail"
	return []Finding{f}
}

// adminAccessLabelRelease is the first release whose namespace label for
// admin access is resource.kubernetes.io/admin-access; 1.33 had
// resource.k8s.io/admin-access (DRAAdminNamespaceLabelKey,
// pkg/apis/resource/types.go; checked in pkg/registry/resource/utils.go).
const adminAccessLabelRelease = 34

// checkSemantics reports what changes meaning between the two releases
// without a field changing: a claim or template with admin access whose
// namespace needs another label across 1.33 and 1.34.
func (c Checker) checkSemantics(base Finding, hubOf func() (runtime.Object, error)) []Finding {
	if c.From == 0 || (c.From < adminAccessLabelRelease) == (c.To < adminAccessLabelRelease) || min(c.From, c.To) < 33 {
		return nil
	}
	hub, err := hubOf()
	if err != nil {
		return nil
	}
	var spec *resource.ResourceClaimSpec
	path := "spec.devices.requests"
	switch o := hub.(type) {
	case *resource.ResourceClaim:
		spec = &o.Spec
	case *resource.ResourceClaimTemplate:
		spec, path = &o.Spec.Spec, "spec.spec.devices.requests"
	default:
		return nil
	}
	for i, r := range spec.Devices.Requests {
		if r.Exactly != nil && r.Exactly.AdminAccess != nil && *r.Exactly.AdminAccess {
			f := base
			f.Severity, f.Check, f.Path = Warning, CheckSemantics, fmt.Sprintf("%s[%d]", path, i)
			f.Why = fmt.Sprintf("admin access needs the namespace label resource.k8s.io/admin-access: \"true\" on 1.33 and resource.kubernetes.io/admin-access: \"true\" from 1.34: on %s the namespace's old label no longer allows it", rel(c.To))
			f.Do = "label the namespace with both keys before the move, and remove the old one after"
			return []Finding{f}
		}
	}
	return nil
}

// checkVersion reports a manifest's apiVersion that the target does not
// serve, serves only with --runtime-config, or deprecates.
func (c Checker) checkVersion(base Finding, hub, version string, preferred catalogue.ServedKind) []Finding {
	s, ok := catalogue.Serves(hub, version, c.To)
	kind := hub
	if name, err := catalogue.NameIn(hub, version); err == nil {
		kind = name
	}
	f := base
	convert := fmt.Sprintf("convert it: drakit convert --output-version %s", preferred.Version.GroupVersion())
	switch {
	case !ok:
		f.Severity, f.Check = Breaking, CheckVersion
		f.Why = fmt.Sprintf("%s does not serve resource.k8s.io/%s %s (it serves the kind in %s)", rel(c.To), version, kind, servedList(hub, c.To))
		f.Do = convert
	case !s.EnabledByDefault && preferred.EnabledByDefault:
		f.Severity, f.Check = Warning, CheckVersionOff
		f.Why = fmt.Sprintf("%s serves resource.k8s.io/%s only with --runtime-config=resource.k8s.io/%s=true (off by default; %s is on)", rel(c.To), version, version, preferred.Version.Name)
		f.Do = convert
	case s.Deprecated:
		lc := s.Version.LifecycleOf(s.Kind)
		f.Severity, f.Check = Warning, CheckDeprecated
		f.Why = fmt.Sprintf("resource.k8s.io/%s %s is deprecated since %s and removed in %s: the API server warns on every request", version, s.Kind.Name, rel(lc.Deprecated), rel(lc.Removed))
		f.Do = convert
	default:
		return nil
	}
	if s.Deprecated && f.Check != CheckDeprecated {
		lc := s.Version.LifecycleOf(s.Kind)
		f.Why += fmt.Sprintf("; deprecated since %s, removed in %s", rel(lc.Deprecated), rel(lc.Removed))
	}
	return []Finding{f}
}

func servedList(hub string, minor int) string {
	var names []string
	for _, s := range catalogue.ServedIn(hub, minor) {
		n := s.Version.Name
		if !s.EnabledByDefault {
			n += " (with --runtime-config)"
		}
		names = append(names, n)
	}
	return strings.Join(names, ", ")
}

// checkContent validates the object in the target's version with the
// target's rules and gates, and compares the fields both releases drop.
func (c Checker) checkContent(base Finding, obj runtime.Object) []Finding {
	var out []Finding
	toGates, _ := gatesOf(c.To)
	opts := validation.Options{FeatureGates: toGates}
	var errs field.ErrorList
	var drops []validation.DropWarning
	if c.Live {
		obj = withResourceVersion(obj)
		errs = validation.ValidateObjectUpdate(obj, obj.DeepCopyObject(), opts)
		_, drops = validation.ValidateObjectWithWarnings(obj.DeepCopyObject(), opts)
	} else {
		errs, drops = validation.ValidateObjectWithWarnings(obj.DeepCopyObject(), opts)
	}
	for _, e := range errs {
		f := base
		f.Severity, f.Check, f.Path = Breaking, CheckValidation, e.Field
		what := "on create"
		if c.Live {
			what = "on the object's next update"
		}
		f.Why = fmt.Sprintf("%s's validation refuses it %s: %s", rel(c.To), what, e.ErrorBody())
		f.Do = "fix the field before moving (drakit validate --as-version " + obj.GetObjectKind().GroupVersionKind().GroupVersion().String() + " checks it)"
		out = append(out, f)
	}
	var fromDrops map[string]bool
	if c.From != 0 && c.From >= features.OldestRelease {
		fromDrops = map[string]bool{}
		fromGates, _ := gatesOf(c.From)
		if _, ds := validation.ValidateObjectWithWarnings(obj.DeepCopyObject(), validation.Options{FeatureGates: fromGates}); ds != nil {
			for _, d := range ds {
				fromDrops[d.Path] = true
			}
		}
	}
	toDropped := map[string]bool{}
	for _, d := range drops {
		toDropped[d.Path] = true
		if fromDrops[d.Path] {
			continue // dropped today already: nothing changes
		}
		f := base
		f.Severity, f.Check, f.Path = Breaking, CheckDroppedFields, d.Path
		why := d.Reason
		if len(d.Gates) > 0 {
			why = fmt.Sprintf("its feature gate %s is off by default in %s (or the field does not exist there yet)", gateNames(d.Gates), rel(c.To))
		}
		f.Why = fmt.Sprintf("%s drops this field on write: %s; the scheduler then allocates without it", rel(c.To), why)
		f.Do = fmt.Sprintf("turn the gate on in %s's kube-apiserver and kube-scheduler (--feature-gates %s=true), or remove the field; downgrade drivers before the cluster (k/k#131246)", rel(c.To), gateNames(d.Gates))
		if c.Live {
			if c.To > c.From {
				f.Severity = Warning
				f.Why = fmt.Sprintf("%s keeps this field on updates while the object uses it, but drops it when the object is written anew (restored, recreated): %s", rel(c.To), why)
			} else {
				f.Why = fmt.Sprintf("%s drops this field: %s", rel(c.To), why)
			}
		}
		out = append(out, f)
	}
	if c.Live {
		return out
	}
	var paths []string
	for p := range fromDrops {
		if !toDropped[p] {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	for _, p := range paths {
		f := base
		f.Severity, f.Check, f.Path = Info, CheckNewSemantics, p
		f.Why = fmt.Sprintf("%s drops this field (its gate is off there), %s keeps it: from %s the field takes effect", rel(c.From), rel(c.To), rel(c.To))
		f.Do = "make sure the field says what you want before the move"
		out = append(out, f)
	}
	return out
}

func gateNames(gates []features.Name) string {
	names := make([]string, len(gates))
	for i, g := range gates {
		names[i] = string(g)
	}
	return strings.Join(names, ",")
}

// stashedFields lists the fields that conversion kept in the stash
// annotation of converted (and that in was not already carrying): what the
// target version cannot say. Paths go down to the first object whose
// values are all scalars or lists ("spec.parametersRef",
// "status.allocation.resourceHandles").
func stashedFields(in, converted runtime.Object) []string {
	after := annotation(converted, resource.StashAnnotation)
	if after == "" || after == annotation(in, resource.StashAnnotation) {
		return nil
	}
	var stash map[string]any
	if json.Unmarshal([]byte(after), &stash) != nil {
		return []string{"metadata.annotations[" + resource.StashAnnotation + "]"}
	}
	delete(stash, "v")
	var out []string
	flatten("", stash, &out)
	sort.Strings(out)
	return out
}

func flatten(prefix string, m map[string]any, out *[]string) {
	for k, v := range m {
		if layoutOnly[k] {
			continue
		}
		p := k
		if prefix != "" {
			p = prefix + "." + k
		}
		if sub, ok := v.(map[string]any); ok && !allScalar(sub) {
			flatten(p, sub, out)
			continue
		}
		if items, ok := v.([]any); ok && len(items) > 0 {
			if _, ok := items[0].(map[string]any); ok {
				// Entries of a list: reported when they hold more than
				// the keys that say which entry it is and layouts.
				held := false
				for _, it := range items {
					if e, ok := it.(map[string]any); ok {
						for ek := range e {
							held = held || (ek != "index" && ek != "name" && !layoutOnly[ek])
						}
					}
				}
				if held {
					*out = append(*out, p)
				}
				continue
			}
		}
		*out = append(*out, p)
	}
}

// layoutOnly are the stash keys that keep only how an old version laid a
// value out (v1alpha2's named-resources attribute order), not something
// the target cannot say.
var layoutOnly = map[string]bool{"namedResources": true}

func allScalar(m map[string]any) bool {
	for _, v := range m {
		if _, ok := v.(map[string]any); ok {
			return false
		}
		if _, ok := v.([]any); ok {
			return false
		}
	}
	return true
}

func annotation(obj runtime.Object, key string) string {
	m, err := meta.Accessor(obj)
	if err != nil {
		return ""
	}
	return m.GetAnnotations()[key]
}

// withResourceVersion is obj, or a copy with a resourceVersion when it
// has none: an update of a stored object carries one (a fake cluster's
// objects may lack it; the v1 DeviceTaintRule refuses an unconditional
// update).
func withResourceVersion(obj runtime.Object) runtime.Object {
	m, err := meta.Accessor(obj)
	if err != nil || m.GetResourceVersion() != "" {
		return obj
	}
	obj = obj.DeepCopyObject()
	m, _ = meta.Accessor(obj)
	m.SetResourceVersion("1")
	return obj
}

// ObjectName names an object for findings as "Kind namespace/name".
func ObjectName(kind, namespace, name string) string {
	if namespace != "" {
		return kind + " " + namespace + "/" + name
	}
	return kind + " " + name
}

// groupVersion is resource.k8s.io/version.
func groupVersion(version string) schema.GroupVersion {
	return schema.GroupVersion{Group: resource.GroupName, Version: version}
}
