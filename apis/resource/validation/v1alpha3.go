package validation

import (
	"encoding/json"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/drakit/drakit/apis/resource/v1alpha3"
)

// The rules of Kubernetes 1.31, which serves v1alpha3. Fields behind the
// DRAControlPlaneController feature gate (spec.controller,
// status.allocation.controller, status.deallocationRequested, DeviceClass
// spec.suitableNodes) are validated as if the gate were enabled; with the
// gate disabled the server drops them instead.

var (
	v1alpha3AllocationModes = []string{string(v1alpha3.DeviceAllocationModeAll), string(v1alpha3.DeviceAllocationModeExactCount)}
	v1alpha3ConfigSources   = []string{v1alpha3.AllocationConfigSourceClaim, v1alpha3.AllocationConfigSourceClass}
)

func init() {
	register(rules[*v1alpha3.ResourceClaim]{
		release:            release131,
		namespaced:         true,
		resetMetaForStatus: true,
		defaults:           func(o *v1alpha3.ResourceClaim) { v1alpha3.SetObjectDefaults_ResourceClaim(o) },
		prepareCreate:      func(o *v1alpha3.ResourceClaim) { o.Status = v1alpha3.ResourceClaimStatus{} },
		prepareUpdate:      func(o, old *v1alpha3.ResourceClaim) { o.Status = old.Status },
		prepareStatus:      func(o, old *v1alpha3.ResourceClaim) { o.Spec = old.Spec },
		create: func(c *checker, o *v1alpha3.ResourceClaim) field.ErrorList {
			return c.a3Claim(o, false)
		},
		update: func(c *checker, o, old *v1alpha3.ResourceClaim) field.ErrorList {
			// The server validates the new claim as on create (its CEL as
			// new expressions), then as an update, where the immutable
			// spec's expressions count as stored.
			errs := c.a3Claim(o, false)
			errs = append(errs, objectMetaUpdate(&o.ObjectMeta, &old.ObjectMeta)...)
			errs = append(errs, immutable(o.Spec, old.Spec, field.NewPath("spec"))...)
			return append(errs, c.a3ClaimSpec(&o.Spec, field.NewPath("spec"), true)...)
		},
		status: (*checker).a3ClaimStatusUpdate,
	})
	register(rules[*v1alpha3.ResourceClaimTemplate]{
		release:    release131,
		namespaced: true,
		defaults:   func(o *v1alpha3.ResourceClaimTemplate) { v1alpha3.SetObjectDefaults_ResourceClaimTemplate(o) },
		create: func(c *checker, o *v1alpha3.ResourceClaimTemplate) field.ErrorList {
			errs := objectMeta(&o.ObjectMeta, true)
			return append(errs, c.a3ClaimTemplateSpec(&o.Spec, false)...)
		},
		update: func(c *checker, o, old *v1alpha3.ResourceClaimTemplate) field.ErrorList {
			errs := objectMeta(&o.ObjectMeta, true)
			errs = append(errs, c.a3ClaimTemplateSpec(&o.Spec, false)...)
			errs = append(errs, objectMetaUpdate(&o.ObjectMeta, &old.ObjectMeta)...)
			errs = append(errs, immutable(o.Spec, old.Spec, field.NewPath("spec"))...)
			return append(errs, c.a3ClaimTemplateSpec(&o.Spec, true)...)
		},
	})
	register(rules[*v1alpha3.DeviceClass]{
		release:       release131,
		prepareCreate: func(o *v1alpha3.DeviceClass) { o.Generation = 1 },
		prepareUpdate: func(o, old *v1alpha3.DeviceClass) {
			if !semanticEqual(o.Spec, old.Spec) {
				o.Generation = old.Generation + 1
			}
		},
		create: func(c *checker, o *v1alpha3.DeviceClass) field.ErrorList {
			errs := objectMeta(&o.ObjectMeta, false)
			return append(errs, c.a3DeviceClassSpec(&o.Spec, false)...)
		},
		update: func(c *checker, o, old *v1alpha3.DeviceClass) field.ErrorList {
			errs := objectMeta(&o.ObjectMeta, false)
			errs = append(errs, c.a3DeviceClassSpec(&o.Spec, false)...)
			errs = append(errs, objectMetaUpdate(&o.ObjectMeta, &old.ObjectMeta)...)
			// Unchanged selectors count as stored; any change, even a
			// reordering, makes all of them new.
			stored := semanticEqual(o.Spec.Selectors, old.Spec.Selectors)
			return append(errs, c.a3DeviceClassSpec(&o.Spec, stored)...)
		},
	})
	register(rules[*v1alpha3.PodSchedulingContext]{
		release:            release131,
		namespaced:         true,
		resetMetaForStatus: true,
		prepareCreate:      func(o *v1alpha3.PodSchedulingContext) { o.Status = v1alpha3.PodSchedulingContextStatus{} },
		prepareUpdate:      func(o, old *v1alpha3.PodSchedulingContext) { o.Status = old.Status },
		prepareStatus:      func(o, old *v1alpha3.PodSchedulingContext) { o.Spec = old.Spec },
		create:             (*checker).a3PodSchedulingContext,
		update: func(c *checker, o, old *v1alpha3.PodSchedulingContext) field.ErrorList {
			errs := c.a3PodSchedulingContext(o)
			errs = append(errs, objectMetaUpdate(&o.ObjectMeta, &old.ObjectMeta)...)
			return append(errs, c.a3PodSchedulingContext(o)...)
		},
		status: (*checker).a3PodSchedulingContextStatusUpdate,
	})
	register(rules[*v1alpha3.ResourceSlice]{
		release:       release131,
		prepareCreate: func(o *v1alpha3.ResourceSlice) { o.Generation = 1 },
		prepareUpdate: func(o, old *v1alpha3.ResourceSlice) {
			if !semanticEqual(o.Spec, old.Spec) {
				o.Generation = old.Generation + 1
			}
		},
		create: func(c *checker, o *v1alpha3.ResourceSlice) field.ErrorList {
			errs := objectMeta(&o.ObjectMeta, false)
			return append(errs, c.a3SliceSpec(&o.Spec, nil)...)
		},
		update: func(c *checker, o, old *v1alpha3.ResourceSlice) field.ErrorList {
			errs := objectMetaUpdate(&o.ObjectMeta, &old.ObjectMeta)
			return append(errs, c.a3SliceSpec(&o.Spec, &old.Spec)...)
		},
	})

	registerList(func(l *v1alpha3.ResourceClaimList) []*v1alpha3.ResourceClaim { return itemPointers(l.Items) })
	registerList(func(l *v1alpha3.ResourceClaimTemplateList) []*v1alpha3.ResourceClaimTemplate {
		return itemPointers(l.Items)
	})
	registerList(func(l *v1alpha3.DeviceClassList) []*v1alpha3.DeviceClass { return itemPointers(l.Items) })
	registerList(func(l *v1alpha3.PodSchedulingContextList) []*v1alpha3.PodSchedulingContext {
		return itemPointers(l.Items)
	})
	registerList(func(l *v1alpha3.ResourceSliceList) []*v1alpha3.ResourceSlice { return itemPointers(l.Items) })
}

// ---------------------------------------------------------------------------
// Names.

// a3QualifiedName checks an attribute or capacity name, or the name in
// matchAttribute: a C identifier, optionally after a domain and one '/'.
// Quirk: 1.31 checks nothing at all when the name has two or more '/';
// Strict rejects such names.
func (c *checker) a3QualifiedName(name string, p *field.Path) field.ErrorList {
	if name == "" {
		return field.ErrorList{field.Required(p, "name required")}
	}
	var errs field.ErrorList
	parts := strings.Split(name, "/")
	switch len(parts) {
	case 1:
		errs = append(errs, cIdentifierRule(parts[0], p)...)
	case 2:
		if parts[0] == "" {
			errs = append(errs, field.Required(p, "the prefix must not be empty"))
		} else {
			errs = append(errs, c.driverName(parts[0], p)...)
		}
		if parts[1] == "" {
			errs = append(errs, field.Required(p, "the name must not be empty"))
		} else {
			errs = append(errs, cIdentifierRule(parts[1], p)...)
		}
	default:
		if c.opts.Strict {
			errs = append(errs, field.Invalid(p, name, strictDetail(
				fmt.Sprintf("must be an identifier, optionally prefixed by a domain and '/', with at most %d '/'", V1alpha3QualifiedNameMaxSlashes),
				string(c.release))))
		}
	}
	return errs
}

// a3FullyQualifiedName is the qualified-name rule plus a required domain.
func (c *checker) a3FullyQualifiedName(name string, p *field.Path) field.ErrorList {
	errs := c.a3QualifiedName(name, p)
	if !strings.Contains(name, "/") {
		errs = append(errs, field.Required(p.Child("domain"), "must include a prefix"))
	}
	return errs
}

// a3PoolName checks a pool name: required, at most V1alpha3PoolNameMaxLength
// bytes, and every '/'-separated part a DNS subdomain (reported on the
// whole name).
func a3PoolName(name string, p *field.Path) field.ErrorList {
	if name == "" {
		return field.ErrorList{field.Required(p, "")}
	}
	var errs field.ErrorList
	if len(name) > V1alpha3PoolNameMaxLength {
		errs = append(errs, tooLongMax(p, name, V1alpha3PoolNameMaxLength))
	}
	for _, part := range strings.Split(name, "/") {
		errs = append(errs, dnsSubdomain(part, p)...)
	}
	return errs
}

// ---------------------------------------------------------------------------
// Claims and templates.

func (c *checker) a3Claim(claim *v1alpha3.ResourceClaim, stored bool) field.ErrorList {
	errs := objectMeta(&claim.ObjectMeta, true)
	return append(errs, c.a3ClaimSpec(&claim.Spec, field.NewPath("spec"), stored)...)
}

func (c *checker) a3ClaimTemplateSpec(spec *v1alpha3.ResourceClaimTemplateSpec, stored bool) field.ErrorList {
	p := field.NewPath("spec")
	errs := templateMeta(&spec.ObjectMeta, p.Child("metadata"))
	return append(errs, c.a3ClaimSpec(&spec.Spec, p.Child("spec"), stored)...)
}

func requestNames(claim *v1alpha3.DeviceClaim) map[string]bool {
	names := make(map[string]bool, len(claim.Requests))
	for _, r := range claim.Requests {
		names[r.Name] = true
	}
	return names
}

func (c *checker) a3ClaimSpec(spec *v1alpha3.ResourceClaimSpec, p *field.Path, stored bool) field.ErrorList {
	dp := p.Child("devices")
	names := requestNames(&spec.Devices)
	errs := uniqueItems(spec.Devices.Requests, V1alpha3DeviceRequestsMaxSize,
		func(r v1alpha3.DeviceRequest, rp *field.Path) field.ErrorList { return c.a3Request(&r, rp, stored) },
		func(r v1alpha3.DeviceRequest) string { return r.Name }, "name", dp.Child("requests"))
	errs = append(errs, eachItem(spec.Devices.Constraints, V1alpha3DeviceConstraintsMaxSize,
		func(con v1alpha3.DeviceConstraint, cp *field.Path) field.ErrorList {
			errs := a3RequestRefs(con.Requests, names, cp.Child("requests"))
			if con.MatchAttribute == nil {
				return append(errs, field.Required(cp.Child("matchAttribute"), ""))
			}
			return append(errs, c.a3FullyQualifiedName(string(*con.MatchAttribute), cp.Child("matchAttribute"))...)
		}, dp.Child("constraints"))...)
	errs = append(errs, eachItem(spec.Devices.Config, V1alpha3DeviceConfigMaxSize,
		func(cfg v1alpha3.DeviceClaimConfiguration, cp *field.Path) field.ErrorList {
			errs := a3RequestRefs(cfg.Requests, names, cp.Child("requests"))
			return append(errs, c.a3DeviceConfiguration(&cfg.DeviceConfiguration, cp)...)
		}, dp.Child("config"))...)
	if spec.Controller != "" {
		errs = append(errs, c.driverName(spec.Controller, p.Child("controller"))...)
	}
	return errs
}

func (c *checker) a3Request(r *v1alpha3.DeviceRequest, p *field.Path, stored bool) field.ErrorList {
	errs := dnsLabel(r.Name, p.Child("name"))
	if r.DeviceClassName == "" {
		errs = append(errs, field.Required(p.Child("deviceClassName"), ""))
	} else {
		errs = append(errs, dnsSubdomain(r.DeviceClassName, p.Child("deviceClassName"))...)
	}
	errs = append(errs, c.a3Selectors(r.Selectors, p.Child("selectors"), stored)...)
	switch r.AllocationMode {
	case v1alpha3.DeviceAllocationModeAll:
		if r.Count != 0 {
			errs = append(errs, field.Invalid(p.Child("count"), r.Count, fmt.Sprintf("must not be specified when allocationMode is '%s'", r.AllocationMode)))
		}
	case v1alpha3.DeviceAllocationModeExactCount:
		if r.Count <= 0 {
			errs = append(errs, field.Invalid(p.Child("count"), r.Count, "must be greater than zero"))
		}
	default:
		errs = append(errs, notSupported(p.Child("allocationMode"), string(r.AllocationMode), v1alpha3AllocationModes))
	}
	return errs
}

func (c *checker) a3Selectors(selectors []v1alpha3.DeviceSelector, p *field.Path, stored bool) field.ErrorList {
	return eachItem(selectors, V1alpha3DeviceSelectorsMaxSize, func(s v1alpha3.DeviceSelector, sp *field.Path) field.ErrorList {
		if s.CEL == nil {
			return field.ErrorList{field.Required(sp.Child("cel"), "")}
		}
		return c.deviceSelectorExpression(s.CEL.Expression, stored, sp.Child("cel", "expression"))
	}, p)
}

// a3RequestRefs checks a list of request names (in constraints, claim
// config and allocated config): unique, at most as many as requests may
// exist, each a DNS label naming a request of the claim.
func a3RequestRefs(refs []string, names map[string]bool, p *field.Path) field.ErrorList {
	return uniqueItems(refs, V1alpha3DeviceRequestsMaxSize, func(name string, rp *field.Path) field.ErrorList {
		return a3RequestRef(name, names, rp)
	}, self[string], "", p)
}

func a3RequestRef(name string, names map[string]bool, p *field.Path) field.ErrorList {
	errs := dnsLabel(name, p)
	if !names[name] {
		errs = append(errs, field.Invalid(p, name, "must be the name of a request in the claim"))
	}
	return errs
}

func (c *checker) a3DeviceConfiguration(cfg *v1alpha3.DeviceConfiguration, p *field.Path) field.ErrorList {
	if cfg.Opaque == nil {
		return field.ErrorList{field.Required(p.Child("opaque"), "")}
	}
	op := p.Child("opaque")
	errs := c.driverName(cfg.Opaque.Driver, op.Child("driver"))
	return append(errs, opaqueParameters(cfg.Opaque.Parameters, op.Child("parameters"))...)
}

// opaqueParameters checks that the parameters are a JSON object. A Go
// caller may have set Object instead of Raw; the server would see Object
// encoded as JSON, so that is what is checked then.
func opaqueParameters(params runtime.RawExtension, p *field.Path) field.ErrorList {
	raw := params.Raw
	if len(raw) == 0 && params.Object != nil {
		encoded, err := json.Marshal(params.Object)
		if err != nil {
			return field.ErrorList{field.Invalid(p, "<value omitted>", fmt.Sprintf("error encoding the object: %v", err))}
		}
		raw = encoded
	}
	if len(raw) == 0 {
		return field.ErrorList{field.Required(p, "")}
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return field.ErrorList{field.Invalid(p, "<value omitted>", fmt.Sprintf("error parsing data: %v", err.Error()))}
	}
	if v == nil {
		return field.ErrorList{field.Required(p, "")}
	}
	if _, ok := v.(map[string]any); !ok {
		return field.ErrorList{field.Invalid(p, "<value omitted>", "parameters must be a valid JSON object")}
	}
	return nil
}

// a3ClaimStatusUpdate is the 1.31 status rule set.
func (c *checker) a3ClaimStatusUpdate(claim, old *v1alpha3.ResourceClaim) field.ErrorList {
	errs := objectMetaUpdate(&claim.ObjectMeta, &old.ObjectMeta)
	p := field.NewPath("status")
	st := &claim.Status
	names := requestNames(&claim.Spec.Devices)
	if a := st.Allocation; a != nil {
		errs = append(errs, c.a3Allocation(a, names, p.Child("allocation"))...)
	}
	errs = append(errs, uniqueItems(st.ReservedFor, V1alpha3ReservedForMaxSize,
		func(r v1alpha3.ResourceClaimConsumerReference, rp *field.Path) field.ErrorList {
			return consumerRef(r.Resource, r.Name, string(r.UID), rp)
		},
		func(r v1alpha3.ResourceClaimConsumerReference) string { return string(r.UID) }, "uid", p.Child("reservedFor"))...)

	now := claimState[v1alpha3.ResourceClaimConsumerReference]{st.Allocation != nil, st.ReservedFor, st.DeallocationRequested}
	before := claimState[v1alpha3.ResourceClaimConsumerReference]{old.Status.Allocation != nil, old.Status.ReservedFor, old.Status.DeallocationRequested}
	errs = append(errs, claimStatusInvariants(now, before, claim.DeletionTimestamp != nil, p)...)
	if st.Allocation != nil && old.Status.Allocation != nil {
		errs = append(errs, immutable(st.Allocation, old.Status.Allocation, p.Child("allocation"))...)
	}
	return append(errs, deallocationInvariants(now, before, p)...)
}

func (c *checker) a3Allocation(a *v1alpha3.AllocationResult, names map[string]bool, p *field.Path) field.ErrorList {
	dp := p.Child("devices")
	results := dp.Child("results")
	errs := eachItem(a.Devices.Results, V1alpha3AllocationResultsMaxSize, func(r v1alpha3.DeviceRequestAllocationResult, rp *field.Path) field.ErrorList {
		errs := a3RequestRef(r.Request, names, rp.Child("request"))
		errs = append(errs, c.driverName(r.Driver, rp.Child("driver"))...)
		errs = append(errs, a3PoolName(r.Pool, rp.Child("pool"))...)
		return append(errs, dnsLabel(r.Device, rp.Child("device"))...)
	}, results)
	if c.opts.Strict {
		// 1.31 does not check that a device is allocated only once.
		seen := map[v1alpha3.DeviceRequestAllocationResult]bool{}
		for i, r := range a.Devices.Results {
			if seen[r] {
				errs = append(errs, &field.Error{Type: field.ErrorTypeDuplicate, Field: results.Index(i).String(), BadValue: r,
					Detail: strictDetail("the same request, driver, pool and device are listed twice", string(c.release))})
			}
			seen[r] = true
		}
	}
	errs = append(errs, eachItem(a.Devices.Config, V1alpha3AllocationConfigMaxSize, func(cfg v1alpha3.DeviceAllocationConfiguration, cp *field.Path) field.ErrorList {
		var errs field.ErrorList
		switch cfg.Source {
		case "":
			errs = append(errs, field.Required(cp.Child("source"), ""))
		case v1alpha3.AllocationConfigSourceClaim, v1alpha3.AllocationConfigSourceClass:
		default:
			errs = append(errs, notSupported(cp.Child("source"), string(cfg.Source), v1alpha3ConfigSources))
		}
		errs = append(errs, a3RequestRefs(cfg.Requests, names, cp.Child("requests"))...)
		return append(errs, c.a3DeviceConfiguration(&cfg.DeviceConfiguration, cp)...)
	}, dp.Child("config"))...)
	if a.NodeSelector != nil {
		errs = append(errs, nodeSelector(a.NodeSelector, p.Child("nodeSelector"))...)
	}
	if a.Controller != "" {
		errs = append(errs, c.driverName(a.Controller, p.Child("controller"))...)
	}
	return errs
}

// ---------------------------------------------------------------------------
// DeviceClass.

func (c *checker) a3DeviceClassSpec(spec *v1alpha3.DeviceClassSpec, stored bool) field.ErrorList {
	p := field.NewPath("spec")
	errs := c.a3Selectors(spec.Selectors, p.Child("selectors"), stored)
	errs = append(errs, eachItem(spec.Config, V1alpha3DeviceConfigMaxSize, func(cfg v1alpha3.DeviceClassConfiguration, cp *field.Path) field.ErrorList {
		return c.a3DeviceConfiguration(&cfg.DeviceConfiguration, cp)
	}, p.Child("config"))...)
	if spec.SuitableNodes != nil {
		// 1.31 reports these errors without the "spec." prefix.
		errs = append(errs, nodeSelector(spec.SuitableNodes, field.NewPath("suitableNodes"))...)
	}
	return errs
}

// ---------------------------------------------------------------------------
// PodSchedulingContext.

func (c *checker) a3PodSchedulingContext(s *v1alpha3.PodSchedulingContext) field.ErrorList {
	errs := objectMeta(&s.ObjectMeta, true)
	errs = append(errs, uniqueItems(s.Spec.PotentialNodes, V1alpha3NodeListMaxSize, dnsSubdomain, self[string], "", field.NewPath("spec", "potentialNodes"))...)
	return append(errs, c.strictSelectedNode(s.Spec.SelectedNode)...)
}

func (c *checker) a3PodSchedulingContextStatusUpdate(s, old *v1alpha3.PodSchedulingContext) field.ErrorList {
	errs := objectMetaUpdate(&s.ObjectMeta, &old.ObjectMeta)
	claims := s.Status.ResourceClaims
	names := make([]string, len(claims))
	for i := range claims {
		names[i] = claims[i].Name
	}
	errs = append(errs, schedulingClaims(names, func(i int, p *field.Path) field.ErrorList {
		return uniqueItems(claims[i].UnsuitableNodes, V1alpha3NodeListMaxSize, dnsSubdomain, self[string], "", p.Child("unsuitableNodes"))
	})...)
	if c.opts.Strict {
		// v1alpha3 marks the name as required, but 1.31 only checks that
		// names are unique.
		for i := range claims {
			if claims[i].Name == "" {
				errs = append(errs, field.Required(field.NewPath("status", "resourceClaims").Index(i).Child("name"),
					strictDetail("the claim name is required", string(c.release))))
			}
		}
	}
	return errs
}

// ---------------------------------------------------------------------------
// ResourceSlice.

func (c *checker) a3SliceSpec(spec, old *v1alpha3.ResourceSliceSpec) field.ErrorList {
	p := field.NewPath("spec")
	errs := c.driverName(spec.Driver, p.Child("driver"))
	pool := p.Child("pool")
	errs = append(errs, a3PoolName(spec.Pool.Name, pool.Child("name"))...)
	if spec.Pool.ResourceSliceCount <= 0 {
		errs = append(errs, field.Invalid(pool.Child("resourceSliceCount"), spec.Pool.ResourceSliceCount, "must be greater than zero"))
	}
	if spec.Pool.Generation < 0 {
		errs = append(errs, field.Invalid(pool.Child("generation"), spec.Pool.Generation, "must be greater than or equal to zero"))
	}
	if old != nil {
		errs = append(errs, immutable(spec.Pool.Name, old.Pool.Name, pool.Child("name"))...)
		errs = append(errs, immutable(spec.Driver, old.Driver, p.Child("driver"))...)
		errs = append(errs, immutable(spec.NodeName, old.NodeName, p.Child("nodeName"))...)
	}

	selections := 0
	if spec.NodeName != "" {
		selections++
		errs = append(errs, dnsSubdomain(spec.NodeName, p.Child("nodeName"))...)
	}
	if spec.NodeSelector != nil {
		selections++
		errs = append(errs, nodeSelector(spec.NodeSelector, p.Child("nodeSelector"))...)
		if terms := spec.NodeSelector.NodeSelectorTerms; len(terms) != V1alpha3SliceNodeSelectorTerms {
			errs = append(errs, field.Invalid(p.Child("nodeSelector", "nodeSelectorTerms"), terms, "must have exactly one selector term"))
		}
	}
	if spec.AllNodes {
		selections++
	}
	switch selections {
	case 0:
		errs = append(errs, field.Required(p, "exactly one of `nodeName`, `nodeSelector`, or `allNodes` is required"))
	case 1:
	default:
		errs = append(errs, field.Invalid(p, spec, "exactly one of `nodeName`, `nodeSelector`, or `allNodes` is required"))
	}

	return append(errs, uniqueItems(spec.Devices, V1alpha3SliceMaxDevices, c.a3Device,
		func(d v1alpha3.Device) string { return d.Name }, "name", p.Child("devices"))...)
}

func (c *checker) a3Device(d v1alpha3.Device, p *field.Path) field.ErrorList {
	errs := dnsLabel(d.Name, p.Child("name"))
	if d.Basic == nil {
		return append(errs, field.Required(p.Child("basic"), ""))
	}
	bp := p.Child("basic")
	ap, cp := bp.Child("attributes"), bp.Child("capacity")
	// Name errors are reported on the whole map, value errors on the entry.
	for _, name := range sortedKeys(d.Basic.Attributes) {
		errs = append(errs, c.a3QualifiedName(string(name), ap)...)
		errs = append(errs, a3Attribute(d.Basic.Attributes[name], ap.Key(string(name)))...)
	}
	for _, name := range sortedKeys(d.Basic.Capacity) {
		// Any quantity that could be decoded is valid.
		errs = append(errs, c.a3QualifiedName(string(name), cp)...)
	}
	if n := len(d.Basic.Attributes) + len(d.Basic.Capacity); n > V1alpha3MaxAttributesAndCapacities {
		errs = append(errs, field.Invalid(bp, n, fmt.Sprintf("the total number of attributes and capacities must not exceed %d", V1alpha3MaxAttributesAndCapacities)))
	}
	return errs
}

func a3Attribute(a v1alpha3.DeviceAttribute, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	set := 0
	if a.BoolValue != nil {
		set++
	}
	if a.IntValue != nil {
		set++
	}
	if a.StringValue != nil {
		set++
		if len(*a.StringValue) > V1alpha3AttributeValueMaxLength {
			errs = append(errs, tooLongMax(p.Child("string"), *a.StringValue, V1alpha3AttributeValueMaxLength))
		}
	}
	if a.VersionValue != nil {
		set++
		if !semverPattern.MatchString(*a.VersionValue) {
			errs = append(errs, field.Invalid(p.Child("version"), *a.VersionValue, semverMessage))
		}
		if len(*a.VersionValue) > V1alpha3AttributeValueMaxLength {
			errs = append(errs, tooLongMax(p.Child("version"), *a.VersionValue, V1alpha3AttributeValueMaxLength))
		}
	}
	switch set {
	case 0:
		errs = append(errs, field.Required(p, "exactly one value must be specified"))
	case 1:
	default:
		errs = append(errs, field.Invalid(p, a, "exactly one field must be specified"))
	}
	return errs
}
