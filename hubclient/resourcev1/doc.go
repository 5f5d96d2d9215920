// Package resourcev1 is client-go's
// k8s.io/client-go/kubernetes/typed/resource/v1.ResourceV1Interface for
// every cluster drakit knows: a driver written against k8s.io/api's
// resource/v1 objects runs unchanged against a server that serves v1
// (Kubernetes 1.34 and later), only v1beta2 or v1beta1 (1.32, 1.33), the
// 1.31 or 1.32/1.33 v1alpha3, or v1alpha2 (1.30 structured parameters).
//
// A driver swaps client-go's group client for it:
//
//	hub, err := hubclient.NewForConfig(restConfig, hubclient.Options{})
//	if err != nil { ... }
//	var draClient resourcev1client.ResourceV1Interface = resourcev1.New(hub)
//	// was: draClient := clientset.ResourceV1()
//	slices, err := draClient.ResourceSlices().List(ctx, metav1.ListOptions{})
//
// or, in one step, resourcev1.NewForConfig(restConfig).
//
// # How
//
// Per kind, it uses the version hubclient negotiated (the newest the server
// serves). When that is v1, every call goes to client-go's own typed client
// unchanged: patches, strategic merge included, and server-side apply are
// the server's. Otherwise every object goes v1 -> hub (conversion.ToHub)
// -> served version on the way out and back the same way, through
// hubclient, with conversion's lossless rules: what the served version
// cannot hold travels in the conversion.drakit.io/stash annotation, and what
// an older version has and v1 cannot say comes back to the caller in that
// annotation of the v1 object (keep it when writing the object back). A
// field the served version's API server does not know is rejected with
// the server's error naming it (writes use fieldValidation=Strict, see
// hubclient), never silently dropped.
//
// List, Watch and DeleteCollection take v1's field selectors
// (resourcev1.ResourceSliceSelectorDriver, ...NodeName, ...PoolName), as
// upstream's ResourceSlice controller writes them; each version is sent its
// own labels (a v1alpha2 slice is selected by driverName and nodeName). A
// selector the served version cannot serve (spec.pool.name before 1.37) is
// refused without a request, with the 400 Bad Request the server would
// answer and an error (*hubclient.FieldSelectorError) that names the field,
// the kind, the version and what it can select on; upstream's controller,
// asked to reconcile one pool, then filters by pool name itself. Label
// selectors are sent as they are.
//
// On 1.30, v1 attribute (and capacity) names that v1alpha2 cannot hold,
// which are most of them (driverVersion, productName,
// gpu.example.com/model: 1.30 takes only lowercase RFC 1123 subdomains),
// are kept in the stash annotation instead of the slice's instance: the
// server stores the slice, it reads back as written, and a controller that
// publishes it converges. The 1.30 scheduler does not see those attributes,
// which every write of such a slice says in a warning (see hubclient's
// Options.WarningHandler).
//
// Errors are the API server's (apierrors.IsNotFound, IsConflict,
// IsAlreadyExists, IsInvalid work as with client-go). A kind the server
// does not serve in any version drakit knows (DeviceTaintRule before 1.33)
// answers every call with a Not Found error, as client-go's own client
// would get from such a server; errors.As finds the
// *hubclient.NotServedError in it, which says what the server serves.
//
// Watch events carry *resourcev1.X objects, bookmarks included; Error
// events are passed on as they come, and an object that cannot be
// converted becomes an Error event naming it.
//
// Patch takes JSON merge patches, JSON patches, strategic merge patches and
// apply patches written against the v1 object. Without v1 on the server
// they are applied on the client to the v1 form of the current object
// (strategic merge with the v1 types' patch metadata,
// k8s.io/apimachinery/pkg/util/strategicpatch) and the result is written
// with Update or UpdateStatus under the resourceVersion it was computed on,
// retried from the new state on a conflict with another writer; so a patch
// is atomic as the server's is. An apply patch goes the way of Apply.
//
// Apply and ApplyStatus take client-go's apply configurations
// (k8s.io/client-go/applyconfigurations/resource/v1). Without v1 on the
// server, the apply configuration's JSON, which is exactly what the caller
// means to own, is read into the v1 type, converted to the hub and applied
// with hubclient's Apply as opts.FieldManager in the served version; a
// conflict with another field manager is the server's 409
// (apierrors.IsConflict). One limit follows from the hub object standing
// for the apply configuration: a plain (non-pointer) field of the v1 type
// applied at its zero value (an empty string, 0, false) counts as not set.
//
// A v1 status can lack what an older server requires: 1.30 (v1alpha2)
// wants status.driverName with an allocation, and shareable for more than
// one consumer, which v1 does not have. The server's Invalid error names
// the field; a program that must write such a status on 1.30 sets the
// field on the hub object (conversion.ToHub, then conversion.FromHub to
// v1 puts it in the stash annotation), which this package restores on the
// way to the server.
//
// RESTClient is the REST client of the version the server is reached with,
// not a v1 one when the server does not serve v1: requests made through it
// directly speak that version and are not converted.
package resourcev1
