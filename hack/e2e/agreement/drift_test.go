package agreement

// A drift is a corpus case on which drakit's validator, which has the rules
// of the release drakit's version stands for, and a later API server
// legitimately answer differently.
type drift struct {
	reason string
	// decision is true when even accept/reject differs; otherwise both
	// reject and only the reported reasons or paths differ, which the test
	// checks.
	decision bool
}

// The reasons, for v1alpha3 (drakit: 1.31 rules) against kube-apiserver
// 1.33.
var (
	internalShape = drift{reason: "1.32+ validates a v1alpha3 object after converting it to the release's internal type, " +
		"which has the v1beta2 shape (a request's fields under requests[].exactly, a device's attributes and capacity on the device, " +
		"no basic), and reports paths in that shape"}
	tooMany         = drift{reason: "1.32+ reports a list longer than its limit as FieldValueTooMany, 1.31 as FieldValueTooLong"}
	shapeAndTooMany = drift{reason: internalShape.reason + "; and " + tooMany.reason}
	matchAttribute  = drift{reason: "1.32+ reports a matchAttribute without a domain as FieldValueInvalid on matchAttribute, " +
		"1.31 as FieldValueRequired on matchAttribute.domain"}
	requestWithoutClass = drift{reason: "1.33 requests name either deviceClassName or firstAvailable (prioritized list, DRAPrioritizedList) " +
		"and report a request with neither on the request itself"}
	attributeKeyPath = drift{reason: internalShape.reason + "; 1.33 also names the attribute or capacity key in the path where 1.31 names the map"}
	basicOptional    = drift{decision: true, reason: "1.33 keeps devices flat: a v1alpha3 device without basic becomes a device without attributes, " +
		"which is valid, while 1.31 requires basic"}
	gateRemoved = drift{reason: "the case needs the DRAControlPlaneController feature gate (classic DRA), which 1.32 removed"}
	notServed   = drift{reason: "1.32 removed PodSchedulingContext together with classic DRA; 1.33 does not serve it"}
)

// knownDrift lists, by the server's minor release, every corpus case on
// which drakit and the server answer differently, with the reason. The
// v1alpha2 corpus has the rules of 1.30 and is replayed against 1.30, so
// nothing may differ there.
var knownDrift = map[int]map[string]drift{
	30: {},
	33: {
		"claim-allocationmode-unsupported":             internalShape,
		"claim-count-negative":                         internalShape,
		"claim-count-with-all":                         internalShape,
		"claim-deviceclassname-invalid":                internalShape,
		"claim-selector-cel-missing":                   internalShape,
		"claim-selector-empty":                         internalShape,
		"claim-selector-not-bool":                      internalShape,
		"claim-selector-syntax-error":                  internalShape,
		"claim-selector-undeclared":                    internalShape,
		"slice-attribute-no-value":                     internalShape,
		"slice-attribute-string-too-long":              internalShape,
		"slice-attribute-two-values":                   internalShape,
		"slice-attribute-version-invalid":              internalShape,
		"slice-attributes-and-capacity-33":             internalShape,
		"slice-attribute-domain-invalid":               attributeKeyPath,
		"slice-attribute-name-invalid":                 attributeKeyPath,
		"slice-attribute-name-too-long":                attributeKeyPath,
		"slice-capacity-name-invalid":                  attributeKeyPath,
		"claim-config-33":                              tooMany,
		"claim-constraints-33":                         tooMany,
		"claim-requests-33":                            tooMany,
		"claim-status-results-33":                      tooMany,
		"class-config-33":                              tooMany,
		"class-selectors-33":                           tooMany,
		"slice-devices-129":                            tooMany,
		"claim-selectors-33":                           shapeAndTooMany,
		"claim-constraint-matchattribute-no-domain":    matchAttribute,
		"claim-deviceclassname-missing":                requestWithoutClass,
		"template-claim-rules":                         requestWithoutClass,
		"slice-device-basic-missing":                   basicOptional,
		"claim-controller-invalid":                     gateRemoved,
		"claim-status-deallocation-without-allocation": gateRemoved,
		"class-suitablenodes-no-terms":                 gateRemoved,
		"psc-potential-nodes-129":                      notServed,
		"psc-potential-nodes-duplicate":                notServed,
		"psc-potential-nodes-invalid":                  notServed,
		"psc-selected-node-unchecked":                  notServed,
		"psc-status-claims-duplicate":                  notServed,
		"psc-status-unsuitable-invalid":                notServed,
		"psc-status-valid":                             notServed,
		"psc-valid":                                    notServed,
	},
}
