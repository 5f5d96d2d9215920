// Package admissionconfig writes and checks the admission configuration a
// DRA driver needs on a given Kubernetes release or cluster: the
// ValidatingWebhookConfiguration that sends every object that can hold
// the driver's opaque configuration to its webhook (the driverconfig
// admission handler, or "drakit webhook serve"), naming exactly the
// resource.k8s.io versions and resources the target serves; the
// ValidatingAdmissionPolicy that limits the driver's kubelet plugin to
// ResourceSlices of its own node and driver; and Lint, which reads
// existing webhook configurations and admission policies and reports the
// rules and CEL expressions that do not fit a target release.
//
// What a release serves comes from drakit's catalogue
// (apis/resource/catalogue: every kind a release registers in a version,
// in any shape), or from a live cluster's discovery (ServedFromDiscovery).
// MatchPolicy says why the rules match Equivalent requests.
package admissionconfig
