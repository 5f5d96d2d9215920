// Package features holds the feature gates of Kubernetes 1.37 that decide
// what the resource.k8s.io API accepts, keeps and type-checks: the DRA
// gates, with the stage and default they have in a 1.37 binary, and the two
// gates from outside DRA that some of them depend on.
//
// A Gates value is a complete assignment of all of them. Its zero value is
// the 1.37 defaults; Parse applies a kube-style --feature-gates flag
// ("DRAListTypeAttributes=true,DRAConsumableCapacity=false") to the
// defaults with the rules of a 1.37 kube-apiserver: unknown gates, values
// that are not booleans and changes of gates locked to their default are
// errors, AllAlpha and AllBeta switch every alpha or beta gate the flag
// does not name, and a gate that is on while a gate it depends on is off is
// an error.
//
// Gate names, stages, defaults and dependencies are those of the 1.37
// versioned feature list of Kubernetes (pkg/features/kube_features.go of
// v1.37.2), as evaluated by k8s.io/component-base's feature gate at
// emulation version 1.37 and its default minimum compatibility version
// 1.36.
//
// ReleaseDefaults gives the defaults of an older release's binaries (1.30
// and later), for questions about a cluster of that release; ParseOnto
// applies a flag over them.
package features

import (
	"fmt"
	"math/bits"
	"sort"
	"strconv"
	"strings"
)

// Name is the name of a feature gate, spelled as Kubernetes spells it.
type Name string

// The DRA feature gates of Kubernetes 1.37, with their stage and default,
// and what each changes for resource.k8s.io objects. "Dropped" means the
// API server clears the field on create, and on update unless the old
// object already used it (see validation.DropDisabledFieldsV1).
const (
	// DynamicResourceAllocation (GA, on, locked) turns on DRA in the
	// scheduler, kubelet, controllers, authorizer and admission. It does
	// not decide which resource.k8s.io versions are served (only
	// --runtime-config does) and gates no API field.
	DynamicResourceAllocation Name = "DynamicResourceAllocation"

	// DRAAdminAccess (GA, on, locked) covers admin access to devices:
	// requests[].exactly.adminAccess and
	// status.allocation.devices.results[].adminAccess are dropped when it
	// is off.
	DRAAdminAccess Name = "DRAAdminAccess"

	// DRAResourceClaimDeviceStatus (GA, on, locked) covers a claim's
	// status.devices, dropped when it is off; it is half of what slice
	// binding conditions need (see DRADeviceBindingConditions).
	DRAResourceClaimDeviceStatus Name = "DRAResourceClaimDeviceStatus"

	// DRAPrioritizedList (GA, on, locked) covers requests[].firstAvailable
	// of claims and claim templates, dropped when it is off.
	DRAPrioritizedList Name = "DRAPrioritizedList"

	// DRAPartitionableDevices (beta, on) covers a slice's sharedCounters
	// and perDeviceNodeSelection and a device's consumesCounters, nodeName,
	// nodeSelector and allNodes, all dropped when it is off.
	DRAPartitionableDevices Name = "DRAPartitionableDevices"

	// DRADeviceTaints (GA, on, not locked) covers a device's taints in a
	// slice and the tolerations of requests and sub-requests, dropped when
	// it is off (results[].tolerations never are).
	DRADeviceTaints Name = "DRADeviceTaints"

	// DRADeviceTaintRules (GA, on, not locked) lets the scheduler and the
	// eviction controller apply DeviceTaintRules. It gates no API field.
	DRADeviceTaintRules Name = "DRADeviceTaintRules"

	// DRAConsumableCapacity (beta, on) covers shared devices: a device's
	// allowMultipleAllocations and capacity[*].requestPolicy, a request's
	// capacity, a constraint's distinctAttribute, and in status
	// results[].shareID, results[].consumedCapacity and devices[].shareID,
	// all dropped when it is off. It also declares
	// device.allowMultipleAllocations in CEL selectors.
	DRAConsumableCapacity Name = "DRAConsumableCapacity"

	// DRADeviceBindingConditions (beta, on) covers results[].bindingConditions
	// and bindingFailureConditions in a claim's status, dropped when it is
	// off; a slice device's bindsToNode, bindingConditions and
	// bindingFailureConditions are dropped unless both it and
	// DRAResourceClaimDeviceStatus are on.
	DRADeviceBindingConditions Name = "DRADeviceBindingConditions"

	// DRAExtendedResource (GA, on, locked) covers a DeviceClass's
	// spec.extendedResourceName, dropped when it is off.
	DRAExtendedResource Name = "DRAExtendedResource"

	// DRASchedulerFilterTimeout (beta, on) lets the scheduler abort its
	// per-node DRA filtering after a timeout. It gates no API field.
	DRASchedulerFilterTimeout Name = "DRASchedulerFilterTimeout"

	// DRAListTypeAttributes (alpha, off) covers list-valued device
	// attributes (ints, bools, strings, versions), dropped when it is off.
	// In CEL it types attribute values as dyn, so that list attributes can
	// be iterated, and adds includes(); derived attributes may then
	// evaluate to lists.
	DRAListTypeAttributes Name = "DRAListTypeAttributes"

	// DRANodeAllocatableResources (alpha, off) covers a device's
	// nodeAllocatableResources, dropped when it is off.
	DRANodeAllocatableResources Name = "DRANodeAllocatableResources"

	// DRAResourcePoolStatus (alpha, off) runs the ResourcePoolStatusRequest
	// controller in kube-controller-manager. It gates no API field.
	DRAResourcePoolStatus Name = "DRAResourcePoolStatus"

	// DRAResourceClaimGranularStatusAuthorization (beta, on) makes status
	// updates of claims need permission on resourceclaims/binding and
	// resourceclaims/driver. It gates no API field.
	DRAResourceClaimGranularStatusAuthorization Name = "DRAResourceClaimGranularStatusAuthorization"

	// DRAWorkloadResourceClaims (beta, off) lets a PodGroup share
	// templated claims. It gates no resource.k8s.io field.
	DRAWorkloadResourceClaims Name = "DRAWorkloadResourceClaims"

	// DRADerivedAttributes (alpha, off) covers requests[].exactly.derivedAttributes
	// and firstAvailable[].derivedAttributes, dropped when it is off.
	DRADerivedAttributes Name = "DRADerivedAttributes"

	// DRADeviceCompatibilityGroups (alpha, off) covers
	// consumesCounters[].compatibilityGroups of slice devices, dropped when
	// it is off.
	DRADeviceCompatibilityGroups Name = "DRADeviceCompatibilityGroups"

	// DRAFractionalCapacityRange (beta, off in a 1.37 binary) allows
	// milli-unit values in the validRange and validValues of capacity
	// request policies. 1.37 lists it twice: off, and on for a minimum
	// compatibility version of 1.37; with the default minimum
	// compatibility version (1.36) the first entry applies.
	DRAFractionalCapacityRange Name = "DRAFractionalCapacityRange"

	// DRAOptionalNodeOperations (alpha, off) covers a slice's
	// skipNodeOperations and results[].skipNodeOperations, dropped when it
	// is off.
	DRAOptionalNodeOperations Name = "DRAOptionalNodeOperations"

	// DRAPartitionableDevicesType (alpha, off) covers a slice's
	// partitionTypeAttribute and a ResourcePoolStatusRequest's
	// spec.defaultPartitionTypeAttribute, dropped when it is off.
	DRAPartitionableDevicesType Name = "DRAPartitionableDevicesType"
)

// Gates from outside DRA that DRA gates depend on. They are known to Parse
// so that a flag can satisfy those dependencies.
const (
	// GenericWorkload (beta, off) is the Workload API; DRAWorkloadResourceClaims
	// needs it.
	GenericWorkload Name = "GenericWorkload"
	// NodeDeclaredFeatures (GA, on, locked) lets nodes declare features;
	// DRAOptionalNodeOperations needs it.
	NodeDeclaredFeatures Name = "NodeDeclaredFeatures"
)

// The pseudo-gates of every Kubernetes component's --feature-gates flag.
const (
	// AllAlpha switches every alpha gate that the flag does not name.
	AllAlpha = "AllAlpha"
	// AllBeta switches every beta gate that the flag does not name.
	AllBeta = "AllBeta"
)

// Stage is a gate's maturity in Kubernetes 1.37.
type Stage string

// The stages a 1.37 gate can be in.
const (
	// Alpha gates are off by default.
	Alpha Stage = "Alpha"
	// Beta gates are on or off by default.
	Beta Stage = "Beta"
	// GA gates are on by default; most are locked.
	GA Stage = "GA"
)

// Spec is what Kubernetes 1.37 says about one gate.
type Spec struct {
	// Name is the gate's name.
	Name Name
	// Stage is its maturity in 1.37.
	Stage Stage
	// Default is whether it is on when the flag does not name it.
	Default bool
	// LockedToDefault says that setting it to the other value is an error.
	LockedToDefault bool
	// DependsOn are the gates that must be on while this one is.
	DependsOn []Name
	// DRA is false for the gates from outside DRA that DRA gates depend on.
	DRA bool
	// OnByDefaultSince is, for a DRA gate on by default, the first minor
	// release whose binaries had it on by default (from the versioned
	// feature lists of Kubernetes 1.32 on; a gate on by default in one
	// release stays so in the later ones). Before it the gate was off by
	// default or did not exist, which for a scheduler is the same.
	// ReleaseDefaults reads it.
	OnByDefaultSince int
}

// specs holds every known gate; a gate's index is its bit in Gates.
var specs = []Spec{
	{Name: DynamicResourceAllocation, Stage: GA, Default: true, LockedToDefault: true, DRA: true, OnByDefaultSince: 34},
	{Name: DRAAdminAccess, Stage: GA, Default: true, LockedToDefault: true, DependsOn: []Name{DynamicResourceAllocation}, DRA: true, OnByDefaultSince: 34},
	{Name: DRAResourceClaimDeviceStatus, Stage: GA, Default: true, LockedToDefault: true, DRA: true, OnByDefaultSince: 33},
	{Name: DRAPrioritizedList, Stage: GA, Default: true, LockedToDefault: true, DependsOn: []Name{DynamicResourceAllocation}, DRA: true, OnByDefaultSince: 34},
	{Name: DRAPartitionableDevices, Stage: Beta, Default: true, DependsOn: []Name{DynamicResourceAllocation}, DRA: true, OnByDefaultSince: 36},
	{Name: DRADeviceTaints, Stage: GA, Default: true, DependsOn: []Name{DynamicResourceAllocation}, DRA: true, OnByDefaultSince: 36},
	{Name: DRADeviceTaintRules, Stage: GA, Default: true, DependsOn: []Name{DRADeviceTaints}, DRA: true, OnByDefaultSince: 37},
	{Name: DRAConsumableCapacity, Stage: Beta, Default: true, DependsOn: []Name{DynamicResourceAllocation}, DRA: true, OnByDefaultSince: 36},
	{Name: DRADeviceBindingConditions, Stage: Beta, Default: true, DependsOn: []Name{DynamicResourceAllocation, DRAResourceClaimDeviceStatus}, DRA: true, OnByDefaultSince: 36},
	{Name: DRAExtendedResource, Stage: GA, Default: true, LockedToDefault: true, DependsOn: []Name{DynamicResourceAllocation}, DRA: true, OnByDefaultSince: 36},
	{Name: DRASchedulerFilterTimeout, Stage: Beta, Default: true, DependsOn: []Name{DynamicResourceAllocation}, DRA: true, OnByDefaultSince: 34},
	{Name: DRAListTypeAttributes, Stage: Alpha, DependsOn: []Name{DynamicResourceAllocation}, DRA: true},
	{Name: DRANodeAllocatableResources, Stage: Alpha, DependsOn: []Name{DynamicResourceAllocation}, DRA: true},
	{Name: DRAResourcePoolStatus, Stage: Alpha, DependsOn: []Name{DynamicResourceAllocation}, DRA: true},
	{Name: DRAResourceClaimGranularStatusAuthorization, Stage: Beta, Default: true, DependsOn: []Name{DynamicResourceAllocation, DRAResourceClaimDeviceStatus}, DRA: true, OnByDefaultSince: 36},
	{Name: DRAWorkloadResourceClaims, Stage: Beta, DependsOn: []Name{DynamicResourceAllocation, GenericWorkload}, DRA: true},
	{Name: DRADerivedAttributes, Stage: Alpha, DependsOn: []Name{DynamicResourceAllocation}, DRA: true},
	{Name: DRADeviceCompatibilityGroups, Stage: Alpha, DependsOn: []Name{DynamicResourceAllocation, DRAPartitionableDevices}, DRA: true},
	{Name: DRAFractionalCapacityRange, Stage: Beta, DependsOn: []Name{DRAConsumableCapacity}, DRA: true},
	{Name: DRAOptionalNodeOperations, Stage: Alpha, DependsOn: []Name{DynamicResourceAllocation, NodeDeclaredFeatures}, DRA: true},
	{Name: DRAPartitionableDevicesType, Stage: Alpha, DependsOn: []Name{DynamicResourceAllocation, DRAPartitionableDevices, DRAResourcePoolStatus}, DRA: true},
	{Name: GenericWorkload, Stage: Beta},
	{Name: NodeDeclaredFeatures, Stage: GA, Default: true, LockedToDefault: true},
}

// index maps a gate's name to its position in specs.
var index = func() map[Name]int {
	m := make(map[Name]int, len(specs))
	for i, s := range specs {
		m[s.Name] = i
	}
	if len(specs) > 64 {
		panic("features: more gates than bits in Gates")
	}
	return m
}()

// Known returns the specs of all known gates: the DRA gates first, in the
// order in which Kubernetes introduced them, then the gates from outside
// DRA. The result is a copy.
func Known() []Spec {
	out := make([]Spec, len(specs))
	for i, s := range specs {
		s.DependsOn = append([]Name(nil), s.DependsOn...)
		out[i] = s
	}
	return out
}

// Lookup returns the spec of the named gate.
func Lookup(name Name) (Spec, bool) {
	i, ok := index[name]
	if !ok {
		return Spec{}, false
	}
	s := specs[i]
	s.DependsOn = append([]Name(nil), s.DependsOn...)
	return s, true
}

// knownNames lists the names Parse accepts, sorted, pseudo-gates included.
func knownNames() string {
	names := []string{AllAlpha, AllBeta}
	for _, s := range specs {
		names = append(names, string(s.Name))
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// Gates says which gates are on. It is a small value, cheap to copy and
// comparable with ==; methods never change it. The zero Gates is the 1.37
// defaults.
type Gates struct {
	// flipped has a bit set for every gate whose state differs from its
	// default, so that the zero value means "the defaults".
	flipped uint64
}

// Defaults returns the gates as a 1.37 binary has them without a
// --feature-gates flag. It equals Gates{}.
func Defaults() Gates { return Gates{} }

func mustIndex(name Name) int {
	i, ok := index[name]
	if !ok {
		panic(fmt.Sprintf("features: unknown feature gate %q (known: %s)", name, knownNames()))
	}
	return i
}

// Enabled says whether the named gate is on. It panics for a name that is
// not a known gate, as Kubernetes does, since that is a mistake of the
// calling code; use Lookup to check a name that comes from elsewhere.
func (g Gates) Enabled(name Name) bool {
	i := mustIndex(name)
	return specs[i].Default != (g.flipped&(1<<i) != 0)
}

// With returns g with the named gate set to enabled. Unlike Parse it
// neither refuses to change a locked gate nor checks dependencies (see
// Validate), so that what-if questions ("what would a 1.37 server with
// DRAPrioritizedList off drop?") can be asked. It panics for an unknown
// gate.
func (g Gates) With(name Name, enabled bool) Gates {
	i := mustIndex(name)
	if enabled == specs[i].Default {
		g.flipped &^= 1 << i
	} else {
		g.flipped |= 1 << i
	}
	return g
}

// String returns the gates that differ from their defaults in the syntax
// of --feature-gates, sorted by name ("" for the defaults). Parse of the
// result gives g back, unless g changes a locked gate.
func (g Gates) String() string {
	var parts []string
	for f := g.flipped; f != 0; f &= f - 1 {
		i := bits.TrailingZeros64(f)
		parts = append(parts, fmt.Sprintf("%s=%t", specs[i].Name, !specs[i].Default))
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}

// Validate reports the gates that are on although a gate they depend on is
// off, as a 1.37 kube-apiserver does at start-up (in one error, sorted by
// gate). Parse calls it; it is useful after With.
func (g Gates) Validate() error {
	var problems []string
	for _, s := range specs {
		if !g.Enabled(s.Name) {
			continue
		}
		var off []string
		for _, dep := range s.DependsOn {
			if !g.Enabled(dep) {
				off = append(off, string(dep))
			}
		}
		if len(off) > 0 {
			problems = append(problems, fmt.Sprintf("%s is enabled, but depends on features that are disabled: [%s]", s.Name, strings.Join(off, " ")))
		}
	}
	if len(problems) == 0 {
		return nil
	}
	sort.Strings(problems)
	return &ParseError{Reason: strings.Join(problems, "; ")}
}

// ParseError is what Parse and Validate return.
type ParseError struct {
	// Gate is the name the flag gave, as written (trimmed of spaces);
	// empty for dependency problems.
	Gate string
	// Reason says what is wrong.
	Reason string
	// ListKnown says that the problem is the name itself, so that the
	// message lists the names Parse knows.
	ListKnown bool
}

func (e *ParseError) Error() string {
	msg := e.Reason
	if e.ListKnown {
		msg += " (known feature gates: " + knownNames() + ")"
	}
	return msg
}

// Parse reads a --feature-gates value of a 1.37 kube-apiserver,
// "Name=bool,Name=bool,...", and returns the defaults with those changes.
// As Kubernetes does, it trims spaces around names and values, skips empty
// items, accepts what strconv.ParseBool accepts, lets the last of several
// settings of one gate win, and lets explicit settings win over AllAlpha
// and AllBeta wherever they stand. It refuses an item without "=", a value
// that is not a boolean, an empty or unknown name (the message lists the
// known ones), a locked gate whose last setting is the other value, and, once
// everything is applied, gates that are on while a gate they depend on is
// off.
//
// Only the gates of this package are known: a flag copied from a cluster
// that also sets gates unrelated to DRA must be trimmed first.
func Parse(s string) (Gates, error) { return ParseOnto(Defaults(), s) }

// ParseOnto is Parse over base instead of the defaults: the flag of a
// component of an older release (base being its defaults, see
// ReleaseDefaults). Setting a locked gate to its value in base is no
// error: the lock is a 1.37 rule, and base is what the component has.
func ParseOnto(base Gates, s string) (Gates, error) {
	type item struct {
		name  string
		value bool
	}
	var items []item
	for _, raw := range strings.Split(s, ",") {
		if raw == "" {
			continue
		}
		name, value, found := strings.Cut(raw, "=")
		name = strings.TrimSpace(name)
		if !found {
			return Gates{}, &ParseError{Gate: name, Reason: fmt.Sprintf("missing bool value for %s", quoteEmpty(name))}
		}
		value = strings.TrimSpace(value)
		b, err := strconv.ParseBool(value)
		if err != nil {
			return Gates{}, &ParseError{Gate: name, Reason: fmt.Sprintf("invalid value of %s=%s: not a boolean (true or false)", quoteEmpty(name), value)}
		}
		items = append(items, item{name, b})
	}

	explicit := map[Name]bool{}
	var allAlpha, allBeta *bool
	for _, it := range items {
		switch {
		case it.name == "":
			return Gates{}, &ParseError{Reason: "empty feature gate name", ListKnown: true}
		case it.name == AllAlpha:
			v := it.value
			allAlpha = &v
			continue
		case it.name == AllBeta:
			v := it.value
			allBeta = &v
			continue
		}
		if _, ok := index[Name(it.name)]; !ok {
			return Gates{}, &ParseError{Gate: it.name, Reason: fmt.Sprintf("unrecognized feature gate: %s", it.name), ListKnown: true}
		}
		explicit[Name(it.name)] = it.value
	}
	// Locks apply to the value that wins, as in Kubernetes, which reads
	// the flag into a map first: "DRAAdminAccess=false,DRAAdminAccess=true"
	// is accepted. The first offending gate in the flag is reported.
	for _, it := range items {
		i, ok := index[Name(it.name)]
		if !ok {
			continue // AllAlpha, AllBeta
		}
		if v := explicit[Name(it.name)]; specs[i].LockedToDefault && v != specs[i].Default && v != base.Enabled(Name(it.name)) {
			return Gates{}, &ParseError{Gate: it.name, Reason: fmt.Sprintf("cannot set feature gate %s to %t, feature is locked to %t", it.name, v, specs[i].Default)}
		}
	}

	g := base
	for _, spec := range specs {
		if v, ok := explicit[spec.Name]; ok {
			g = g.With(spec.Name, v)
			continue
		}
		switch {
		case spec.Stage == Alpha && allAlpha != nil:
			g = g.With(spec.Name, *allAlpha)
		case spec.Stage == Beta && allBeta != nil:
			g = g.With(spec.Name, *allBeta)
		}
	}
	if err := g.Validate(); err != nil {
		return Gates{}, err
	}
	return g, nil
}

func quoteEmpty(name string) string {
	if name == "" {
		return `""`
	}
	return name
}
