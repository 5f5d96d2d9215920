package allocator

import (
	"errors"
	"fmt"
)

// Reason classifies why a claim could not be allocated.
type Reason string

const (
	// ReasonInvalidClaim: the claim breaks a rule the API server enforces
	// (no requests, a negative count, a constraint without matchAttribute,
	// a selector without CEL, ...). Fix the claim.
	ReasonInvalidClaim Reason = "InvalidClaim"
	// ReasonControllerManaged: spec.controller names a control-plane
	// controller, which allocates such claims itself.
	ReasonControllerManaged Reason = "ControllerManaged"
	// ReasonUnsupported: the claim or its class relies on something the
	// allocator cannot evaluate: legacy parametersRef objects; also a
	// claim that got a device whose node selector has several terms, which
	// no allocation can describe.
	ReasonUnsupported Reason = "Unsupported"
	// ReasonFeatureDisabled: the claim uses a field whose feature is off
	// in Options.Features (firstAvailable without PrioritizedList,
	// capacity requests without ConsumableCapacity, adminAccess without
	// AdminAccess, derived attributes without DerivedAttributes), which
	// upstream's allocator refuses.
	ReasonFeatureDisabled Reason = "FeatureDisabled"
	// ReasonDeviceTainted: an All request matches a device with a
	// NoSchedule or NoExecute taint that the request does not tolerate.
	ReasonDeviceTainted Reason = "DeviceTainted"
	// ReasonNoClass: a request names a DeviceClass that was not given.
	ReasonNoClass Reason = "NoClass"
	// ReasonInvalidSelector: a class or request selector does not compile.
	ReasonInvalidSelector Reason = "InvalidSelector"
	// ReasonCELRuntimeError: a selector failed while evaluating a device;
	// the error names the expression and the device.
	ReasonCELRuntimeError Reason = "CELRuntimeError"
	// ReasonNoMatch: no device that the node can reach passes the class's
	// and the request's selectors.
	ReasonNoMatch Reason = "NoMatchingDevice"
	// ReasonNotEnough: fewer devices match and are free than the request
	// asks for.
	ReasonNotEnough Reason = "NotEnoughDevices"
	// ReasonDeviceInUse: an All request matches a device that is already
	// allocated (only adminAccess may share devices).
	ReasonDeviceInUse Reason = "DeviceInUse"
	// ReasonIncompletePool: an All request cannot know all devices while a
	// pool is being updated (not all of its slices are published).
	ReasonIncompletePool Reason = "IncompletePool"
	// ReasonInvalidPool: an All request cannot know all devices while a
	// pool names a device twice (such pools are never used).
	ReasonInvalidPool Reason = "InvalidPool"
	// ReasonTooManyDevices: the claim would get more devices than an
	// allocation result can hold (32).
	ReasonTooManyDevices Reason = "TooManyDevices"
	// ReasonConstraintUnsatisfiable: enough devices match each request, but
	// no choice gives all of them the same value of a matchAttribute.
	ReasonConstraintUnsatisfiable Reason = "ConstraintUnsatisfiable"
	// ReasonConflict: every request can be met on its own, but not all of
	// them together (they compete for the same devices), or not together
	// with the claims before it in the same call.
	ReasonConflict Reason = "Conflict"
	// ReasonOtherClaimFailed: in Joint mode, the claim could have been
	// allocated, but another claim of the same call could not, and claims
	// are allocated all or nothing.
	ReasonOtherClaimFailed Reason = "OtherClaimFailed"
)

// ClaimError says why one claim was not allocated.
type ClaimError struct {
	// Claim is "namespace/name" (or "name" for a claim without namespace).
	Claim string
	// Request is the request that failed, when one request is to blame.
	Request string
	// Reason classifies the failure.
	Reason Reason
	// Detail explains it in words, with numbers where they help.
	Detail string
	// Err is the underlying error, if any (a CEL compile or runtime error).
	Err error
	// upstream is how upstream reports the failure, when not as a claim
	// it cannot allocate on the node (see upstream.go).
	upstream *upstreamFailure
	// asks and free are, for ReasonNotEnough, what the request asks for
	// and how many of its matching devices are free (not allocated, not
	// blocked by a taint, usable); asks is 0 when there are no such
	// numbers (an All request). Pods' reasons count them (PodReason).
	asks, free int
}

func (e *ClaimError) Error() string {
	s := "claim " + e.Claim
	if e.Request != "" {
		s += fmt.Sprintf(", request %q", e.Request)
	}
	s += ": " + e.Detail
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *ClaimError) Unwrap() error { return e.Err }

// IsReason reports whether err is a *ClaimError with the given reason.
func IsReason(err error, reason Reason) bool {
	var ce *ClaimError
	return errors.As(err, &ce) && ce.Reason == reason
}
