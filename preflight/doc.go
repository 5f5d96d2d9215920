// Package preflight checks, before a cluster moves from one Kubernetes
// release to another (up or down), what of its resource.k8s.io objects,
// manifests, admission webhooks, admission policies and RBAC rules breaks
// on the target release, and says what to do about each; and it proves a
// storage plan for the stored objects before anything is written.
//
// Every fact comes from the catalogue (apis/resource/catalogue): which
// versions each release registers and enables by default, their
// prerelease lifecycle, and the storage version of every kind in every
// release. Field drops come from apis/resource/validation's drop rules with
// the target release's default feature gates (features.ReleaseDefaults),
// validation from the validators of the target's rules, lost fields from
// conversion's stash. The checks:
//
//   - CheckStorage: objects the target cannot read, walking the releases
//     one by one as a control plane is upgraded or downgraded: an object
//     written by an older release and never rewritten is still stored in
//     that release's storage version (before 1.32 as v1alpha3, which 1.34
//     cannot read); a downgrade is refused where the newer release's
//     storage version is unknown to the older one (1.32 to 1.31, 1.35 to
//     1.33);
//   - Checker.CheckObject: a resource.k8s.io object (a manifest, or one
//     the cluster holds) in a version the target does not serve, or only
//     with --runtime-config, or deprecated there; fields the target's
//     version cannot say; fields the target drops because their gate is
//     off there (or does not exist yet); fields that take effect only on
//     the target; what the target's validation refuses;
//   - Checker.CheckRules, CheckPolicyCEL and TypeCheckPolicy: webhook and
//     policy rules that match only versions the target does not serve (by
//     default), resources it does not have, CEL expressions using fields
//     the served version names otherwise, and expressions that do not
//     type-check there (driverconfig/admissionconfig's lint, the API
//     server's policy type checker);
//   - Checker.CheckRole: RBAC rules on resources the target does not
//     have, and, from 1.36, status writers without the resourceclaims/binding
//     or resourceclaims/driver permissions;
//   - Plan: the storage plan of a live cluster's objects, each converted
//     to the target's storage version and back and compared.
//
// preflight knows nothing of files or clusters: the caller (drakit
// upgrade-check) reads them and places the findings.
package preflight
