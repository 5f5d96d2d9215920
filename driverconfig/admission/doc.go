// Package admission is a validating admission webhook for drivers' opaque
// configs: an http.Handler that a driver mounts with only its
// driverconfig.Registry.
//
//	reg := driverconfig.NewRegistry()
//	reg.MustRegister(driverconfig.NewSchemeDecoder(scheme, validate), "gpu.example.com")
//	srv, err := admission.NewServer(":8443", admission.NewHandler(reg), "tls.crt", "tls.key")
//	...
//	err = srv.ListenAndServeTLS("", "")
//
// # What the handler reads
//
// An admission.k8s.io/v1 AdmissionReview, POSTed as application/json, of
// at most DefaultMaxRequestBytes (WithMaxRequestBytes). A request that is
// not one (another method, another media type, a body over the limit,
// invalid UTF-8, not JSON, another apiVersion or kind such as
// admission.k8s.io/v1beta1, no request, no uid) gets an HTTP error status
// with a message saying what is wrong (405, 415, 413 or 400). The API
// server treats such an answer as a failed call, so the webhook's
// failurePolicy decides; the handler never answers "allowed" to a request
// it did not read.
//
// # What it decides
//
// CREATE and UPDATE of a ResourceClaim, ResourceClaimTemplate or
// DeviceClass in any version a cluster may send (v1alpha3 of 1.31,
// v1beta1, v1beta2, v1), and of 1.30's ResourceClaimParameters and
// ResourceClassParameters (v1alpha2): every opaque config of a driver
// registered in the Registry is decoded (strictly, unless the Registry is
// a NonStrict view) and validated. Configs of other drivers are not the
// webhook's to judge and are skipped. Kinds of resource.k8s.io that hold
// no opaque config (ResourceSlices, say) are allowed. DELETE and CONNECT
// are allowed; a review with another operation (none, say) is refused
// with 400 Bad Request.
//
// The object is decoded in the version the API server sent
// (request.kind), leniently: the server has decoded it already. An object
// outside resource.k8s.io, of a kind the handler cannot read (a list), or
// whose apiVersion and kind are not the request's, is refused with 400
// Bad Request and a message naming the kind, since the webhook's rules
// should not send it.
//
// A review with invalid configs is refused with the status the API
// server gives for its own Invalid errors (apierrors.NewInvalid): code
// 422, reason Invalid, a message listing each error, and one
// status.details.causes entry per error whose field is the config's path
// in the object's own version (spec.devices.config[1].opaque.parameters
// in a claim, spec.spec.devices.config[0].opaque.parameters in a
// template, spec.config[0].opaque.parameters in a class), so kubectl
// prints them one per line.
//
// # UPDATE
//
// On UPDATE a config that fails validation is still allowed when the old
// object holds the same config (the same driver, source and requests, and
// parameters equal as JSON values, wherever it stands in the list), and a
// warning says so. This is what the API server's validation ratcheting
// does for its own fields: an update is not refused for a value it does
// not change, so a driver that tightens its validation does not wedge
// label changes on old DeviceClasses, nor finalizer removal on old
// claims. A changed or new config is validated as on CREATE. When the old
// object is missing or cannot be read, nothing is ratcheted.
//
// # Logging and timeouts
//
// The handler logs each decision (uid, kind, namespace, name, operation,
// allowed, number of causes, duration) at verbosity 2; it never logs a
// request body, an object or a parameter. Each review's context ends
// after DefaultTimeout (WithTimeout). NewServer sets the read, write,
// header and idle timeouts of the server, and serves a certificate that
// CertReloader reloads when its files change.
package admission
