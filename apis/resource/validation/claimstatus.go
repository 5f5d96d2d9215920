package validation

import (
	"encoding/json"

	resourcev1 "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/api/validate"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The status of a ResourceClaim (1.37).

// ValidateResourceClaimStatusUpdateV1 validates a /status update.
func (c *checkerV1) ValidateResourceClaimStatusUpdateV1(claim, old *resourcev1.ResourceClaim) field.ErrorList {
	errs := objectMetaUpdate(&claim.ObjectMeta, &old.ObjectMeta)
	names := gatherRequestNamesV1(&claim.Spec.Devices)
	return append(errs, c.validateResourceClaimStatusUpdateV1(&claim.Status, &old.Status, claim.DeletionTimestamp != nil, names, field.NewPath("status"))...)
}

// validateResourceClaimStatusUpdateV1 checks reservedFor (at most
// V1ReservedForMaxSize entries unique by uid, each with resource, name and
// uid; only with an allocation; no new entries while the claim is being
// deleted), devices (unique by driver, pool, device and shareID, each an
// allocated device) and the allocation: a new one is validated, a set one
// may not change (the declarative error "field cannot be modified once
// set"), and may be removed.
func (c *checkerV1) validateResourceClaimStatusUpdateV1(st, old *resourcev1.ResourceClaimStatus, deleting bool, names requestNamesV1, p *field.Path) field.ErrorList {
	errs := validateSetV1(st.ReservedFor, V1ReservedForMaxSize,
		func(r resourcev1.ResourceClaimConsumerReference, rp *field.Path) field.ErrorList {
			return validateResourceClaimUserReference(r.Resource, r.Name, string(r.UID), rp)
		},
		func(r resourcev1.ResourceClaimConsumerReference) string { return string(r.UID) },
		coverageOf(st.ReservedFor, &old.ReservedFor), p.Child("reservedFor"))

	allocated := map[sharedDeviceIDV1]bool{}
	if st.Allocation != nil {
		for _, r := range st.Allocation.Devices.Results {
			allocated[makeSharedDeviceIDV1(r.Driver, r.Pool, r.Device, (*string)(r.ShareID))] = true
		}
	}
	// The declarative validation looks at entries that are new (by
	// driver, pool, device and shareID) when the list changed.
	devices := coverageOf(st.Devices, &old.Devices)
	stored := map[sharedDeviceIDV1]bool{}
	for _, d := range old.Devices {
		stored[makeSharedDeviceIDV1(d.Driver, d.Pool, d.Device, d.ShareID)] = true
	}
	errs = append(errs, validateSetV1(st.Devices, -1, func(d resourcev1.AllocatedDeviceStatus, dp *field.Path) field.ErrorList {
		return c.validateDeviceStatusV1(&d, dp, allocated, devices.ifChanged(!stored[makeSharedDeviceIDV1(d.Driver, d.Pool, d.Device, d.ShareID)]))
	}, func(d resourcev1.AllocatedDeviceStatus) sharedDeviceIDV1 {
		return makeSharedDeviceIDV1(d.Driver, d.Pool, d.Device, d.ShareID)
	}, devices, p.Child("devices"))...)

	now := claimState[resourcev1.ResourceClaimConsumerReference]{allocated: st.Allocation != nil, reservedFor: st.ReservedFor}
	before := claimState[resourcev1.ResourceClaimConsumerReference]{allocated: old.Allocation != nil, reservedFor: old.ReservedFor}
	errs = append(errs, claimStatusInvariants(now, before, deleting, p)...)

	switch {
	case st.Allocation != nil && old.Allocation != nil:
		if !semanticEqual(st.Allocation, old.Allocation) {
			errs = append(errs, field.Invalid(p.Child("allocation"), nil, "field cannot be modified once set").WithOrigin("update"))
		}
	case st.Allocation != nil:
		errs = append(errs, c.validateAllocationResultV1(st.Allocation, p.Child("allocation"), names, false)...)
	}
	return errs
}

// sharedDeviceIDV1 identifies an allocated device, or one share of it.
// It is what 1.37 reports as the value of a status entry that names no
// allocated device ("driver/pool/device[/shareID]").
type sharedDeviceIDV1 struct {
	driver, pool, device, shareID string
}

func makeSharedDeviceIDV1(driver, pool, device string, shareID *string) sharedDeviceIDV1 {
	id := sharedDeviceIDV1{driver: driver, pool: pool, device: device}
	if shareID != nil {
		id.shareID = *shareID
	}
	return id
}

func (d sharedDeviceIDV1) String() string {
	s := d.driver + "/" + d.pool + "/" + d.device
	if d.shareID != "" {
		s += "/" + d.shareID
	}
	return s
}

// MarshalJSON renders the ID as its string in error messages.
func (d sharedDeviceIDV1) MarshalJSON() ([]byte, error) { return json.Marshal(d.String()) }

// validateDeviceStatusV1 checks one status.devices entry; declarative says
// whether the declarative validation looks at it (a new entry).
func (c *checkerV1) validateDeviceStatusV1(d *resourcev1.AllocatedDeviceStatus, p *field.Path, allocated map[sharedDeviceIDV1]bool, declarative declarativeCoverage) field.ErrorList {
	errs := c.validateDriverNameV1(d.Driver, p.Child("driver"), handwrittenOnly)
	errs = append(errs, validatePoolNameV1(d.Pool, p.Child("pool"))...)
	errs = append(errs, dnsLabel(d.Device, p.Child("device"))...)
	if d.ShareID != nil {
		errs = append(errs, validateUIDV1(*d.ShareID, p.Child("shareID"), declarative)...)
	}
	if id := makeSharedDeviceIDV1(d.Driver, d.Pool, d.Device, d.ShareID); !allocated[id] {
		errs = append(errs, field.Invalid(p, id, "must be an allocated device in the claim"))
	}
	if len(d.Conditions) > V1AllocatedDeviceStatusMaxConditions {
		errs = append(errs, field.TooMany(p.Child("conditions"), len(d.Conditions), V1AllocatedDeviceStatusMaxConditions))
	}
	errs = append(errs, metav1validation.ValidateConditions(d.Conditions, p.Child("conditions"))...)
	if d.Data != nil && (len(d.Data.Raw) > 0 || d.Data.Object != nil) {
		errs = append(errs, validateRawExtensionV1(*d.Data, p.Child("data"), false, V1AllocatedDeviceStatusDataMaxLength)...)
	}
	return append(errs, validateNetworkDeviceDataV1(d.NetworkData, p.Child("networkData"))...)
}

// validateNetworkDeviceDataV1: interfaceName and hardwareAddress limited in
// bytes, at most V1NetworkDeviceDataMaxIPs unique IPs, each an IP with a
// prefix length.
func validateNetworkDeviceDataV1(n *resourcev1.NetworkDeviceData, p *field.Path) field.ErrorList {
	if n == nil {
		return nil
	}
	var errs field.ErrorList
	if len(n.InterfaceName) > V1NetworkDeviceDataInterfaceNameMaxLength {
		errs = append(errs, field.TooLong(p.Child("interfaceName"), "", V1NetworkDeviceDataInterfaceNameMaxLength).WithOrigin("maxBytes"))
	}
	if len(n.HardwareAddress) > V1NetworkDeviceDataHardwareAddressMaxLength {
		errs = append(errs, field.TooLong(p.Child("hardwareAddress"), "", V1NetworkDeviceDataHardwareAddressMaxLength).WithOrigin("maxBytes"))
	}
	return append(errs, validateSetV1(n.IPs, V1NetworkDeviceDataMaxIPs, func(ip string, ipp *field.Path) field.ErrorList {
		return validation.IsValidInterfaceAddress(ipp, ip)
	}, self[string], handwrittenOnly, p.Child("ips"))...)
}

// validateAllocationResultV1 validates a new allocation.
func (c *checkerV1) validateAllocationResultV1(a *resourcev1.AllocationResult, p *field.Path, names requestNamesV1, stored bool) field.ErrorList {
	errs := c.validateDeviceAllocationResultV1(&a.Devices, p.Child("devices"), names, stored)
	if a.NodeSelector != nil {
		errs = append(errs, nodeSelectorV1(a.NodeSelector, p.Child("nodeSelector"))...)
	}
	return errs
}

func (c *checkerV1) validateDeviceAllocationResultV1(a *resourcev1.DeviceAllocationResult, p *field.Path, names requestNamesV1, stored bool) field.ErrorList {
	errs := validateSliceV1(a.Results, V1AllocationResultsMaxSize, func(r resourcev1.DeviceRequestAllocationResult, rp *field.Path) field.ErrorList {
		return c.validateDeviceRequestAllocationResultV1(&r, rp, names)
	}, p.Child("results"))
	return append(errs, validateSliceV1(a.Config, V1AllocationConfigMaxSize, func(cfg resourcev1.DeviceAllocationConfiguration, cp *field.Path) field.ErrorList {
		return c.validateDeviceAllocationConfigurationV1(&cfg, cp, names, stored)
	}, p.Child("config"))...)
}

// validateDeviceRequestAllocationResultV1: the driver and pool errors are
// the declarative ones; skipNodeOperations' values and uniqueness are
// declarative (declarativeSkipNodeOperationsV1).
func (c *checkerV1) validateDeviceRequestAllocationResultV1(r *resourcev1.DeviceRequestAllocationResult, p *field.Path, names requestNamesV1) field.ErrorList {
	errs := validateRequestNameRefV1(r.Request, p.Child("request"), names)
	errs = append(errs, c.validateDriverNameV1(r.Driver, p.Child("driver"), coveredByDeclarative)...)
	errs = append(errs, declarativePoolNameV1(r.Pool, p.Child("pool"))...)
	errs = append(errs, dnsLabel(r.Device, p.Child("device"))...)
	errs = append(errs, validateDeviceBindingParametersV1(r.BindingConditions, r.BindingFailureConditions, p)...)
	for i := range r.Tolerations {
		errs = append(errs, validateDeviceTolerationV1(&r.Tolerations[i], p.Child("tolerations").Index(i))...)
	}
	if r.ShareID != nil {
		errs = append(errs, validateUIDV1(string(*r.ShareID), p.Child("shareID"), coveredByDeclarative)...)
	}
	errs = append(errs, validateSkipNodeOperationsV1(r.SkipNodeOperations, p.Child("skipNodeOperations"))...)
	return append(errs, declarativeSkipNodeOperationsV1(r.SkipNodeOperations, nil, p.Child("skipNodeOperations"))...)
}

func (c *checkerV1) validateDeviceAllocationConfigurationV1(cfg *resourcev1.DeviceAllocationConfiguration, p *field.Path, names requestNamesV1, stored bool) field.ErrorList {
	errs := validateAllocationConfigSourceV1(cfg.Source, p.Child("source"))
	errs = append(errs, c.requestNameRefsV1(cfg.Requests, names, coveredByDeclarative, p.Child("requests"))...)
	return append(errs, c.validateDeviceConfigurationV1(&cfg.DeviceConfiguration, p, stored, coveredByDeclarative)...)
}

func validateAllocationConfigSourceV1(source resourcev1.AllocationConfigSource, p *field.Path) field.ErrorList {
	switch source {
	case "":
		return field.ErrorList{field.Required(p, "")}
	case resourcev1.AllocationConfigSourceClaim, resourcev1.AllocationConfigSourceClass:
		return nil
	}
	return field.ErrorList{field.NotSupported(p, source, v1ConfigSources)}
}

// validateSkipNodeOperationsV1: NodePrepareResources may only be skipped
// together with NodeUnprepareResources (or "*").
func validateSkipNodeOperationsV1(ops []resourcev1.SkipNodeOperation, p *field.Path) field.ErrorList {
	set := sets.New(ops...)
	if set.Has(resourcev1.SkipNodeOperationNodePrepareResources) &&
		!set.Has(resourcev1.SkipNodeOperationNodeUnprepareResources) && !set.Has(resourcev1.SkipNodeOperationAll) {
		return field.ErrorList{field.Invalid(p, ops, "NodePrepareResources cannot be skipped unless NodeUnprepareResources is also skipped")}
	}
	return nil
}

// declarativeSkipNodeOperationsV1: unique entries, each one of "*",
// NodePrepareResources, NodeUnprepareResources; on an update, values the
// stored list (old) already has are not checked again.
func declarativeSkipNodeOperationsV1(ops, old []resourcev1.SkipNodeOperation, p *field.Path) field.ErrorList {
	errs := duplicatesV1(ops, self[resourcev1.SkipNodeOperation], coveredByDeclarative, p)
	stored := sets.New(old...)
	for i := range ops {
		if !stored.Has(ops[i]) {
			errs = append(errs, validate.Enum(declarativeCtx, declarativeOp, p.Index(i), &ops[i], nil, v1SkipNodeOperations, nil)...)
		}
	}
	return errs
}

// validateDeviceBindingParametersV1: bindingConditions and
// bindingFailureConditions have at most 4 label names each, no duplicates,
// no overlap, and are set together.
func validateDeviceBindingParametersV1(conditions, failureConditions []string, p *field.Path) field.ErrorList {
	cp, fp := p.Child("bindingConditions"), p.Child("bindingFailureConditions")
	errs := validateSliceV1(conditions, V1BindingConditionsMaxSize, metav1validation.ValidateLabelName, cp)
	errs = append(errs, validateSliceV1(failureConditions, V1BindingFailureConditionsMaxSize, metav1validation.ValidateLabelName, fp)...)
	errs = append(errs, duplicatesV1(conditions, self[string], handwrittenOnly, cp)...)
	inConditions := sets.New(conditions...)
	seen := sets.New[string]()
	for i, cond := range failureConditions {
		if seen.Has(cond) {
			errs = append(errs, field.Duplicate(fp.Index(i), cond))
		} else {
			seen.Insert(cond)
		}
		if inConditions.Has(cond) {
			errs = append(errs, field.Invalid(fp.Index(i), cond, "bindingFailureConditions must not overlap with bindingConditions"))
		}
	}
	if len(conditions) == 0 && len(failureConditions) > 0 {
		errs = append(errs, field.Invalid(cp, conditions, "bindingConditions are required to use bindingFailureConditions"))
	}
	if len(failureConditions) == 0 && len(conditions) > 0 {
		errs = append(errs, field.Invalid(fp, failureConditions, "bindingFailureConditions are required to use bindingConditions"))
	}
	return errs
}
