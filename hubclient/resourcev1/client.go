package resourcev1

import (
	"errors"
	"net/http"

	resourcev1 "k8s.io/api/resource/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	acv1 "k8s.io/client-go/applyconfigurations/resource/v1"
	resourcev1client "k8s.io/client-go/kubernetes/typed/resource/v1"
	"k8s.io/client-go/rest"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/hubclient"
)

// The drop-in promise, checked by the compiler.
var (
	_ resourcev1client.ResourceV1Interface            = (*Client)(nil)
	_ resourcev1client.DeviceClassInterface           = (*kindClient[*resourcev1.DeviceClass, *resourcev1.DeviceClassList, *acv1.DeviceClassApplyConfiguration, *resource.DeviceClass, *resource.DeviceClassList])(nil)
	_ resourcev1client.ResourceClaimInterface         = (*kindClient[*resourcev1.ResourceClaim, *resourcev1.ResourceClaimList, *acv1.ResourceClaimApplyConfiguration, *resource.ResourceClaim, *resource.ResourceClaimList])(nil)
	_ resourcev1client.ResourceClaimTemplateInterface = (*kindClient[*resourcev1.ResourceClaimTemplate, *resourcev1.ResourceClaimTemplateList, *acv1.ResourceClaimTemplateApplyConfiguration, *resource.ResourceClaimTemplate, *resource.ResourceClaimTemplateList])(nil)
	_ resourcev1client.ResourceSliceInterface         = (*kindClient[*resourcev1.ResourceSlice, *resourcev1.ResourceSliceList, *acv1.ResourceSliceApplyConfiguration, *resource.ResourceSlice, *resource.ResourceSliceList])(nil)
	_ resourcev1client.DeviceTaintRuleInterface       = (*kindClient[*resourcev1.DeviceTaintRule, *resourcev1.DeviceTaintRuleList, *acv1.DeviceTaintRuleApplyConfiguration, *resource.DeviceTaintRule, *resource.DeviceTaintRuleList])(nil)
)

// Client is client-go's ResourceV1Interface over a hubclient.Client: every
// kind speaks k8s.io/api/resource/v1 objects, whatever version the server
// serves it in.
type Client struct {
	hub *hubclient.Client
}

// New returns the ResourceV1Interface of c. The versions are those c
// negotiated when it was made.
func New(c *hubclient.Client) resourcev1client.ResourceV1Interface {
	return &Client{hub: c}
}

// NewForConfig negotiates the versions the server at cfg serves
// (hubclient.NewForConfig) and returns their ResourceV1Interface.
func NewForConfig(cfg *rest.Config) (resourcev1client.ResourceV1Interface, error) {
	c, err := hubclient.NewForConfig(cfg, hubclient.Options{})
	if err != nil {
		return nil, err
	}
	return New(c), nil
}

// RESTClient is the REST client of the version the server is reached with
// (hubclient.Client.Version): client-go's v1 client when the server serves
// v1, else the v1beta2, v1beta1 (client-go) or v1alpha3, v1alpha2, v1alpha1
// (drakit's clientset) client. Requests through it speak that version;
// nothing converts them to or from v1.
func (c *Client) RESTClient() rest.Interface {
	cs := c.hub.Clientsets()
	switch c.hub.Version() {
	case "v1":
		return cs.Kube.ResourceV1().RESTClient()
	case "v1beta2":
		return cs.Kube.ResourceV1beta2().RESTClient()
	case "v1beta1":
		return cs.Kube.ResourceV1beta1().RESTClient()
	case "v1alpha3":
		return cs.Drakit.ResourceV1alpha3().RESTClient()
	case "v1alpha2":
		return cs.Drakit.ResourceV1alpha2().RESTClient()
	default:
		return cs.Drakit.ResourceV1alpha1().RESTClient()
	}
}

// DeviceClasses are the device classes (ResourceClass in v1alpha2).
func (c *Client) DeviceClasses() resourcev1client.DeviceClassInterface {
	var direct resourcev1client.DeviceClassInterface
	if c.servesV1("DeviceClass") {
		direct = c.hub.Clientsets().Kube.ResourceV1().DeviceClasses()
	}
	return newKindClient[*resourcev1.DeviceClass, *resourcev1.DeviceClassList, *acv1.DeviceClassApplyConfiguration](c.hub.DeviceClasses(), direct)
}

// DeviceTaintRules are the device taint rules (served from 1.33 on, in
// v1alpha3 first).
func (c *Client) DeviceTaintRules() resourcev1client.DeviceTaintRuleInterface {
	var direct resourcev1client.DeviceTaintRuleInterface
	if c.servesV1("DeviceTaintRule") {
		direct = c.hub.Clientsets().Kube.ResourceV1().DeviceTaintRules()
	}
	return newKindClient[*resourcev1.DeviceTaintRule, *resourcev1.DeviceTaintRuleList, *acv1.DeviceTaintRuleApplyConfiguration](c.hub.DeviceTaintRules(), direct)
}

// ResourceClaims are the claims of a namespace.
func (c *Client) ResourceClaims(namespace string) resourcev1client.ResourceClaimInterface {
	var direct resourcev1client.ResourceClaimInterface
	if c.servesV1("ResourceClaim") {
		direct = c.hub.Clientsets().Kube.ResourceV1().ResourceClaims(namespace)
	}
	return newKindClient[*resourcev1.ResourceClaim, *resourcev1.ResourceClaimList, *acv1.ResourceClaimApplyConfiguration](c.hub.ResourceClaims(namespace), direct)
}

// ResourceClaimTemplates are the claim templates of a namespace.
func (c *Client) ResourceClaimTemplates(namespace string) resourcev1client.ResourceClaimTemplateInterface {
	var direct resourcev1client.ResourceClaimTemplateInterface
	if c.servesV1("ResourceClaimTemplate") {
		direct = c.hub.Clientsets().Kube.ResourceV1().ResourceClaimTemplates(namespace)
	}
	return newKindClient[*resourcev1.ResourceClaimTemplate, *resourcev1.ResourceClaimTemplateList, *acv1.ResourceClaimTemplateApplyConfiguration](c.hub.ResourceClaimTemplates(namespace), direct)
}

// ResourceSlices are the published device inventories.
func (c *Client) ResourceSlices() resourcev1client.ResourceSliceInterface {
	var direct resourcev1client.ResourceSliceInterface
	if c.servesV1("ResourceSlice") {
		direct = c.hub.Clientsets().Kube.ResourceV1().ResourceSlices()
	}
	return newKindClient[*resourcev1.ResourceSlice, *resourcev1.ResourceSliceList, *acv1.ResourceSliceApplyConfiguration](c.hub.ResourceSlices(), direct)
}

// servesV1 tells whether the server serves the hub kind in v1. Then
// client-go's own v1 client does the work: there is nothing to convert,
// and the server itself patches (strategic merge included) and applies.
func (c *Client) servesV1(hubKind string) bool {
	v, ok := c.hub.VersionFor(hubKind)
	return ok && v == "v1"
}

// notServedError is hubclient's NotServedError as the API server's answer
// for a resource it does not have, 404 Not Found, which is what client-go's
// own v1 client gets from such a server: apierrors.IsNotFound holds, and
// errors.As still finds the *hubclient.NotServedError with the details.
type notServedError struct {
	err *hubclient.NotServedError
}

func (e *notServedError) Error() string { return e.err.Error() }
func (e *notServedError) Unwrap() error { return e.err }
func (e *notServedError) Status() metav1.Status {
	return metav1.Status{
		Status:  metav1.StatusFailure,
		Code:    http.StatusNotFound,
		Reason:  metav1.StatusReasonNotFound,
		Message: e.err.Error(),
		Details: &metav1.StatusDetails{Group: resource.GroupName, Kind: e.err.Kind},
	}
}

var _ apierrors.APIStatus = (*notServedError)(nil)

// apiError makes a kind the server does not serve a Not Found; every other
// error (the API server's own, conversion errors naming the field) is
// passed on as it is.
func apiError(err error) error {
	var ns *hubclient.NotServedError
	if errors.As(err, &ns) {
		return &notServedError{err: ns}
	}
	return err
}
