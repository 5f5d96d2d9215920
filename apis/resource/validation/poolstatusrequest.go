package validation

import (
	"k8s.io/api/resource/v1alpha3"
	"k8s.io/apimachinery/pkg/api/validate"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The status rules of a ResourcePoolStatusRequest, which 1.37 only
// declares (+k8s: tags of v1alpha3's types; no handwritten counterpart).
// They run when the status is first written: once written it is immutable
// and, being unchanged, not validated again. The limits are the tags'
// values.
const (
	// ResourcePoolStatusRequestMaxPools bounds status.pools.
	ResourcePoolStatusRequestMaxPools = 1000
	// ResourcePoolStatusRequestMaxConditions bounds status.conditions.
	ResourcePoolStatusRequestMaxConditions = 10
	// PoolStatusMaxPartitionTypes bounds a pool's partitionSummary.
	PoolStatusMaxPartitionTypes = 32
	// PoolStatusValidationErrorMaxBytes bounds a pool's validationError.
	PoolStatusValidationErrorMaxBytes = 256
	// ShareableSummaryMaxCapacities bounds shareableSummary.capacity.
	ShareableSummaryMaxCapacities = 32
)

// declarativeResourcePoolStatusRequestStatusV1alpha3 is
// Validate_ResourcePoolStatusRequestStatus: poolCount required and not
// negative, at most ResourcePoolStatusRequestMaxPools pools (each checked
// by declarativePoolStatusV1alpha3) and ResourcePoolStatusRequestMaxConditions
// conditions. (The conditions' uniqueness by type is an alpha tag, not
// enforced; their content is the handwritten metav1 check.)
func declarativeResourcePoolStatusRequestStatusV1alpha3(st *v1alpha3.ResourcePoolStatusRequestStatus, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	errs = append(errs, requiredMinimumV1alpha3(st.PoolCount, 0, p.Child("poolCount"))...)
	pools := p.Child("pools")
	if e := validate.MaxItems(declarativeCtx, declarativeOp, pools, st.Pools, nil, ResourcePoolStatusRequestMaxPools); len(e) > 0 {
		errs = append(errs, e...)
	} else {
		for i := range st.Pools {
			errs = append(errs, declarativePoolStatusV1alpha3(&st.Pools[i], pools.Index(i))...)
		}
	}
	return append(errs, validate.MaxItems(declarativeCtx, declarativeOp, p.Child("conditions"), st.Conditions, nil, ResourcePoolStatusRequestMaxConditions)...)
}

// declarativePoolStatusV1alpha3 is Validate_PoolStatus.
func declarativePoolStatusV1alpha3(s *v1alpha3.PoolStatus, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if e := validate.RequiredValue(declarativeCtx, declarativeOp, p.Child("driver"), &s.Driver, nil); len(e) > 0 {
		errs = append(errs, e...)
	} else {
		errs = append(errs, validate.LongNameCaseless(declarativeCtx, declarativeOp, p.Child("driver"), &s.Driver, nil)...)
	}
	if e := validate.RequiredValue(declarativeCtx, declarativeOp, p.Child("poolName"), &s.PoolName, nil); len(e) > 0 {
		errs = append(errs, e...)
	} else {
		errs = append(errs, validate.ResourcePoolName(declarativeCtx, declarativeOp, p.Child("poolName"), &s.PoolName, nil)...)
	}
	// Required as a value: a generation of 0 is refused (a quirk of the
	// tags, which the server enforces).
	if e := validate.RequiredValue(declarativeCtx, declarativeOp, p.Child("generation"), &s.Generation, nil); len(e) > 0 {
		errs = append(errs, e...)
	} else {
		errs = append(errs, validate.Minimum(declarativeCtx, declarativeOp, p.Child("generation"), &s.Generation, nil, 0)...)
	}
	errs = append(errs, optionalMinimumV1alpha3(s.ResourceSliceCount, 1, p.Child("resourceSliceCount"))...)
	errs = append(errs, optionalMinimumV1alpha3(s.TotalDevices, 0, p.Child("totalDevices"))...)
	errs = append(errs, optionalMinimumV1alpha3(s.AllocatedDevices, 0, p.Child("allocatedDevices"))...)
	errs = append(errs, optionalMinimumV1alpha3(s.AvailableDevices, 0, p.Child("availableDevices"))...)
	errs = append(errs, optionalMinimumV1alpha3(s.UnavailableDevices, 0, p.Child("unavailableDevices"))...)
	if s.NodeName != nil {
		errs = append(errs, validate.LongName(declarativeCtx, declarativeOp, p.Child("nodeName"), s.NodeName, nil)...)
	}
	if s.ValidationError != nil {
		errs = append(errs, validate.MaxBytes(declarativeCtx, declarativeOp, p.Child("validationError"), s.ValidationError, nil, PoolStatusValidationErrorMaxBytes)...)
	}
	summary := p.Child("partitionSummary")
	if e := validate.MaxItems(declarativeCtx, declarativeOp, summary, s.PartitionSummary, nil, PoolStatusMaxPartitionTypes); len(e) > 0 {
		errs = append(errs, e...)
	} else {
		errs = append(errs, validate.ValSliceUnique(declarativeCtx, declarativeOp, summary, s.PartitionSummary, nil,
			func(a, b *v1alpha3.PartitionTypeStatus) bool { return a.Attribute == b.Attribute && a.Type == b.Type })...)
		for i := range s.PartitionSummary {
			errs = append(errs, declarativePartitionTypeStatusV1alpha3(&s.PartitionSummary[i], summary.Index(i))...)
		}
	}
	if s.ShareableSummary != nil {
		errs = append(errs, declarativeShareableSummaryStatusV1alpha3(s.ShareableSummary, p.Child("shareableSummary"))...)
	}
	return errs
}

// declarativePartitionTypeStatusV1alpha3 is Validate_PartitionTypeStatus.
func declarativePartitionTypeStatusV1alpha3(s *v1alpha3.PartitionTypeStatus, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	errs = append(errs, validate.RequiredValue(declarativeCtx, declarativeOp, p.Child("attribute"), &s.Attribute, nil)...)
	errs = append(errs, validate.RequiredValue(declarativeCtx, declarativeOp, p.Child("type"), &s.Type, nil)...)
	errs = append(errs, requiredMinimumV1alpha3(s.Total, 0, p.Child("total"))...)
	return append(errs, requiredMinimumV1alpha3(s.Allocatable, 0, p.Child("allocatable"))...)
}

// declarativeShareableSummaryStatusV1alpha3 is
// Validate_ShareableSummaryStatus with Validate_ShareableCapacityStatus.
func declarativeShareableSummaryStatusV1alpha3(s *v1alpha3.ShareableSummaryStatus, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	errs = append(errs, requiredMinimumV1alpha3(s.FullyAvailableDevices, 0, p.Child("fullyAvailableDevices"))...)
	errs = append(errs, requiredMinimumV1alpha3(s.PartiallyAvailableDevices, 0, p.Child("partiallyAvailableDevices"))...)
	capacity := p.Child("capacity")
	if e := validate.MaxItems(declarativeCtx, declarativeOp, capacity, s.Capacity, nil, ShareableSummaryMaxCapacities); len(e) > 0 {
		return append(errs, e...)
	}
	for i := range s.Capacity {
		c, cp := &s.Capacity[i], capacity.Index(i)
		errs = append(errs, validate.RequiredValue(declarativeCtx, declarativeOp, cp.Child("name"), &c.Name, nil)...)
		errs = append(errs, validate.RequiredPointer(declarativeCtx, declarativeOp, cp.Child("total"), c.Total, nil)...)
		errs = append(errs, validate.RequiredPointer(declarativeCtx, declarativeOp, cp.Child("consumed"), c.Consumed, nil)...)
		errs = append(errs, validate.RequiredPointer(declarativeCtx, declarativeOp, cp.Child("available"), c.Available, nil)...)
	}
	return errs
}

// requiredMinimumV1alpha3: a required pointer whose value is at least min.
func requiredMinimumV1alpha3(v *int32, min int32, p *field.Path) field.ErrorList {
	if v == nil {
		return field.ErrorList{field.Required(p, "")}
	}
	return validate.Minimum(declarativeCtx, declarativeOp, p, v, nil, min)
}

// optionalMinimumV1alpha3: an optional pointer whose value, if set, is at
// least min.
func optionalMinimumV1alpha3(v *int32, min int32, p *field.Path) field.ErrorList {
	if v == nil {
		return nil
	}
	return validate.Minimum(declarativeCtx, declarativeOp, p, v, nil, min)
}
