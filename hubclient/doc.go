// Package hubclient reads and writes resource.k8s.io objects as drakit hub
// objects (package apis/resource) against an API server that serves any of
// the versions drakit knows (apis/resource/catalogue): v1alpha1 (Kubernetes
// 1.26), v1alpha2 (1.27 to 1.30), v1alpha3 (1.31 and later), v1beta1
// (1.32 and later), v1beta2 (1.33 and later) or v1 (1.34 and later, served
// by default). For each kind it uses the newest of them the server serves:
// v1alpha2 on 1.30, v1alpha3 on 1.31 to 1.33 (unless v1beta1 or v1beta2 is
// enabled), v1 on 1.34 and later.
//
// A driver built with hubclient runs unchanged against clusters that serve
// different DRA versions: it discovers which version the server serves (per
// kind, through the discovery API), converts every object it sends from the
// hub to that version and every object it receives back to the hub, with
// conversion.Convert's lossless rules. What the served version cannot say
// travels in the conversion.drakit.io/stash annotation and comes back.
//
// The kinds client-go serves (v1, v1beta2, v1beta1 and v1alpha3's
// DeviceTaintRule and ResourcePoolStatusRequest) go through client-go's
// kubernetes.Interface, which NewForConfig makes to speak protobuf as
// Kubernetes' own components do; the rest (v1alpha1, v1alpha2, v1alpha3's
// 1.31 kinds) through drakit's generated clientset. New takes both as
// Clientsets, so tests can hand it client-go's and drakit's fakes.
//
//	c, err := hubclient.NewForConfig(restConfig, hubclient.Options{})
//	claim, err := c.ResourceClaims("default").Get(ctx, "gpu-claim", metav1.GetOptions{})
//	// claim is a *resource.ResourceClaim (hub) whatever the server serves.
//
// Package hubclient/resourcev1 hands the same negotiation out as
// client-go's ResourceV1Interface, with k8s.io/api/resource/v1 objects, for
// drivers written against client-go.
//
// # Operations
//
// Every kind has Get, List, Watch, Create, Update, Delete, DeleteCollection,
// Patch and Apply; kinds with a status subresource (ResourceClaim,
// PodSchedulingContext) also have UpdateStatus and ApplyStatus. ListWatch
// and Informer plug a kind into client-go's cache machinery, with hub
// objects in the cache.
//
// # Field and label selectors
//
// List, Watch and DeleteCollection (and so ListWatch and Informer) take
// field selectors written with the hub's field labels, which are v1's: a
// ResourceSlice's spec.driver, spec.nodeName and spec.pool.name, and
// metadata.name (and metadata.namespace for every kind but ResourceSlice).
// Each is sent in the label the served version has for the same field
// (catalogue.Kind.FieldLabels): v1alpha2 selects a slice by driverName and
// nodeName. A selector the served version cannot serve is not sent: the
// caller gets a *FieldSelectorError, a 400 Bad Request as the API server
// would answer (apierrors.IsBadRequest), naming the field, the kind, the
// version and what it can select on. That is v1alpha2's and v1alpha3's
// spec.pool.name, which only the versions of 1.37 and later have; for
// that, hubclient asks the server its release (GET /version) the first time
// it is needed, and when the server does not say, sends the selector and
// lets the server answer. Label selectors are sent as they are: labels are
// the same in every version.
//
// # Warnings
//
// A write that the served version can store only with the stash's help,
// although the cluster's own components read the field from the version
// itself, warns through Options.WarningHandler (by default where the
// rest.Config's warnings go, else klog). The case is a ResourceSlice on
// 1.30: v1alpha2 takes only lowercase RFC 1123 subdomains as attribute
// names, and most v1 names (driverVersion, productName,
// gpu.example.com/model) are not. Such attributes and capacities are kept in
// the stash (docs/conversion.md, "a2 names"), so the slice is stored and
// reads back whole, and a controller that compares what it reads with what
// it wants sees no difference and does not write again; but the 1.30
// scheduler reads only the instance and does not see them. Each Create,
// Update, Patch and Apply of such a slice warns once, naming the slice and
// the names.
//
// # Strict field validation
//
// The hub can hold more than a server's version may know: drakit's v1alpha3
// is the 1.31 shape, and 1.32 removed fields from v1alpha3 in place (for
// example spec.controller). A server that does not know a field drops it
// with only a warning under its default field validation, so hubclient
// sends every write with fieldValidation=Strict unless the caller chose
// another value: an object the server cannot store completely is rejected
// with an error naming the field instead of losing it.
//
// # Patch
//
// Patch takes a JSON merge patch (types.MergePatchType, RFC 7386) or a JSON
// patch (types.JSONPatchType, RFC 6902) written against the hub object's
// JSON form, which has the paths of the versioned objects: the hub's field
// names (the API's names, e.g. spec.devices.requests), the object metadata
// under "metadata" and a claim template's under "spec.metadata". The patch
// is applied on the client to the current object, converted to the hub; the
// result is converted to the served version and sent as a JSON merge patch
// of exactly the fields that changed, with metadata.resourceVersion set, so
// the server applies it only to the state the patch was computed on. When
// another writer got there first the server answers 409 Conflict and Patch
// starts over from the new state (up to retry.DefaultRetry's attempts),
// which gives the same atomic semantics as a server-side patch. A patch
// that sets metadata.resourceVersion itself holds the object to that
// version, as the server would: when the object is at another one, Patch
// returns a Conflict without writing or trying again. A JSON patch
// "test" operation therefore tests the hub form of the current object.
// Strategic merge patch is not supported: the hub declares no list merge
// keys (the versions disagree about them); use a merge patch, a JSON patch
// or Apply.
//
// # Server-side apply
//
// Apply sends a hub object as an apply patch in the served version. The
// hub object stands for an apply configuration: what it sets is the
// caller's intent and becomes owned by opts.FieldManager. A field is set
// when it is a non-nil pointer, a non-nil slice or map, or a plain (non
// pointer) value other than its zero value. A plain field at its zero value
// (empty string, 0, false) is not part of the intent, exactly like an unset
// field of an apply configuration; the consequence is that such a field
// cannot be applied at its zero value (ResourceSlice spec.pool.generation 0
// stays unowned). Empty plain structs are left out as well. Fields that
// conversion moves into the stash annotation are owned through that
// annotation, so two managers that apply different hub-only fields of one
// object conflict on the annotation. The server cannot merge what only the
// stash holds, so Apply merges that part on the client: the intent is merged
// into the current object as hub objects (objects field by field, lists and
// values replaced) and the apply body carries the stash of the result, so
// an apply never drops what the stash keeps for fields it does not set.
// ApplyStatus sends only the object's identity and its status.
//
// # Status and the stash
//
// The API server's status subresource keeps the stored annotations, so a
// status write cannot update the stash annotation by itself. When the
// status holds something the served version cannot say (device results on
// v1alpha2, status.driverName on v1alpha3, ...), UpdateStatus, ApplyStatus
// and Patch with the "status" subresource write the annotation afterwards
// through the main resource, as a merge patch with the resourceVersion of
// the status write as precondition. The two writes are not atomic: between
// them a reader sees the new status with the old stash (the version's own
// fields are right, only what the stash adds lags), and when the second
// write fails the error says so and repeating the status write completes it.
// Conversely, Create, Update, Patch and Apply of the main resource ignore
// the status like the server does, and their stash keeps the stored status
// (Update reads it first; its resourceVersion precondition makes sure it is
// still the stored one when the update succeeds).
//
// # What it does not do
//
// It does not change API versions of objects already stored (the server
// does that), and it knows only the versions of drakit's catalogue: a
// server that serves only a later version of resource.k8s.io is reported
// as not serving any version hubclient can use.
package hubclient
