package admissionconfig

import (
	"fmt"
	"strconv"
	"strings"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilvalidation "k8s.io/apimachinery/pkg/util/validation"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/catalogue"
)

// NodeNameExtraKey is the key of request.userInfo.extra under which the
// API server puts the name of the node a service account token's pod runs
// on (ServiceAccountTokenPodNodeInfo: beta and on by default in 1.30, GA
// in 1.32; k8s.io/kubernetes pkg/serviceaccount).
const NodeNameExtraKey = "authentication.kubernetes.io/node-name"

// PolicyAPIRelease is the first release that serves
// admissionregistration.k8s.io/v1 ValidatingAdmissionPolicies.
const PolicyAPIRelease = 30

// SlicePolicyOptions say whose ResourceSlice writes the policy limits.
type SlicePolicyOptions struct {
	// Drivers are the driver names the service account may publish
	// slices for.
	Drivers []string
	// ServiceAccountNamespace and ServiceAccountName are the kubelet
	// plugin's service account.
	ServiceAccountNamespace, ServiceAccountName string
	// Name is the policy's and the binding's name; default
	// "<driver>-resourceslices".
	Name string
}

// ResourceSlicePolicy is the ValidatingAdmissionPolicy, and its binding,
// that limits the ResourceSlice writes (create, update, delete) of a
// driver's kubelet plugin service account to slices of the node its pod
// runs on and of its own driver names: upstream's pattern
// (test/e2e/dra/test-driver/deploy/example/plugin-permissions.yaml) with
// the driver name pinned as well, and on UPDATE the old slice held to the
// same rules, so that the account can neither move another node's slice
// to its node nor take over another driver's. The node comes from the
// token (NodeNameExtraKey); a request without it is refused. The match
// rules name every version s serves resourceslices in, and the CEL uses
// each version's own field names, from the catalogue's field labels
// (1.30's v1alpha2 slice has nodeName and driverName at the top; later
// versions under spec).
func ResourceSlicePolicy(s *Served, o SlicePolicyOptions) (*admissionregistrationv1.ValidatingAdmissionPolicy, *admissionregistrationv1.ValidatingAdmissionPolicyBinding, error) {
	if s.Release != 0 && s.Release < PolicyAPIRelease {
		return nil, nil, fmt.Errorf("%s does not serve admissionregistration.k8s.io/v1 ValidatingAdmissionPolicies (1.%d and later do)", s.About, PolicyAPIRelease)
	}
	if len(o.Drivers) == 0 {
		return nil, nil, fmt.Errorf("no driver name: the policy pins the slices' driver")
	}
	for _, d := range o.Drivers {
		if msgs := utilvalidation.IsDNS1123Subdomain(d); len(msgs) > 0 {
			return nil, nil, fmt.Errorf("driver name %q: %s", d, strings.Join(msgs, "; "))
		}
	}
	if o.ServiceAccountNamespace == "" || o.ServiceAccountName == "" {
		return nil, nil, fmt.Errorf("the policy needs the kubelet plugin's service account: its namespace and name")
	}
	name := o.Name
	if name == "" {
		name = o.Drivers[0] + "-resourceslices"
	}
	versions, nodeField, driverField, err := sliceFields(s)
	if err != nil {
		return nil, nil, err
	}

	quoted := make([]string, len(o.Drivers))
	for i, d := range o.Drivers {
		quoted[i] = strconv.Quote(d)
	}
	drivers := "[" + strings.Join(quoted, ", ") + "]"
	user := "system:serviceaccount:" + o.ServiceAccountNamespace + ":" + o.ServiceAccountName
	// get reads a field of a slice by its path in the matched version;
	// an absent (nil) node name is "" (a slice of no node).
	get := func(obj, path string) string {
		parent, leaf := "", path
		if i := strings.LastIndex(path, "."); i >= 0 {
			parent, leaf = "."+path[:i], path[i+1:]
		}
		return fmt.Sprintf("%s%s.?%s.orValue(\"\")", obj, parent, leaf)
	}

	fail := admissionregistrationv1.Fail
	policy := MatchPolicy
	vap := &admissionregistrationv1.ValidatingAdmissionPolicy{
		TypeMeta:   metav1.TypeMeta{APIVersion: admissionregistrationv1.SchemeGroupVersion.String(), Kind: "ValidatingAdmissionPolicy"},
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: admissionregistrationv1.ValidatingAdmissionPolicySpec{
			FailurePolicy: &fail,
			MatchConstraints: &admissionregistrationv1.MatchResources{
				MatchPolicy: &policy,
				ResourceRules: []admissionregistrationv1.NamedRuleWithOperations{{
					RuleWithOperations: admissionregistrationv1.RuleWithOperations{
						Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Create, admissionregistrationv1.Update, admissionregistrationv1.Delete},
						Rule: admissionregistrationv1.Rule{
							APIGroups:   []string{resource.GroupName},
							APIVersions: versions,
							Resources:   []string{"resourceslices"},
						},
					},
				}},
			},
			MatchConditions: []admissionregistrationv1.MatchCondition{{
				Name:       "isDriverServiceAccount",
				Expression: fmt.Sprintf("request.userInfo.username == %q", user),
			}},
			Variables: []admissionregistrationv1.Variable{
				{Name: "userNodeName", Expression: fmt.Sprintf("request.userInfo.extra[?%q][0].orValue(\"\")", NodeNameExtraKey)},
				{Name: "slice", Expression: `request.operation == "DELETE" ? oldObject : object`},
				{Name: "objectNodeName", Expression: get("variables.slice", nodeField)},
				{Name: "objectDriver", Expression: get("variables.slice", driverField)},
				{Name: "oldNodeName", Expression: fmt.Sprintf(`request.operation == "UPDATE" ? %s : variables.objectNodeName`, get("oldObject", nodeField))},
				{Name: "oldDriver", Expression: fmt.Sprintf(`request.operation == "UPDATE" ? %s : variables.objectDriver`, get("oldObject", driverField))},
			},
			Validations: []admissionregistrationv1.Validation{
				{
					Expression: `variables.userNodeName != ""`,
					Message:    "no node association found for the user: it must run in a pod on a node, and the API server must put the node into service account tokens (ServiceAccountTokenPodNodeInfo)",
				},
				{
					Expression:        "variables.userNodeName == variables.objectNodeName && variables.userNodeName == variables.oldNodeName",
					MessageExpression: `"this user running on node '" + variables.userNodeName + "' may not modify " + (variables.objectNodeName == "" ? "cluster resourceslices" : "resourceslices on node '" + variables.objectNodeName + "'")`,
				},
				{
					Expression:        fmt.Sprintf("variables.objectDriver in %s && variables.oldDriver in %s", drivers, drivers),
					MessageExpression: fmt.Sprintf(`"this user may only modify resourceslices of driver %s, not of '" + variables.objectDriver + "'"`, strings.Join(o.Drivers, " or ")),
				},
			},
		},
	}
	binding := &admissionregistrationv1.ValidatingAdmissionPolicyBinding{
		TypeMeta:   metav1.TypeMeta{APIVersion: admissionregistrationv1.SchemeGroupVersion.String(), Kind: "ValidatingAdmissionPolicyBinding"},
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: admissionregistrationv1.ValidatingAdmissionPolicyBindingSpec{
			PolicyName:        name,
			ValidationActions: []admissionregistrationv1.ValidationAction{admissionregistrationv1.Deny},
		},
	}
	return vap, binding, nil
}

// sliceFields are the versions s serves resourceslices in and the paths
// of a slice's node name and driver in them, read from the catalogue's
// field labels (the labels are the fields' paths in the version). The
// versions must agree on the paths: one policy has one set of
// expressions.
func sliceFields(s *Served) (versions []string, nodeField, driverField string, err error) {
	for _, v := range s.VersionsOf("resourceslices") {
		cv, lerr := catalogue.Lookup(v)
		if lerr != nil {
			continue // a version drakit does not know: Equivalent converts it
		}
		k, ok := cv.HubKind("ResourceSlice")
		if !ok {
			continue
		}
		node, okN := k.FieldLabel("spec.nodeName")
		driver, okD := k.FieldLabel("spec.driver")
		if !okN || !okD {
			continue
		}
		if len(versions) > 0 && (node.Name != nodeField || driver.Name != driverField) {
			return nil, "", "", fmt.Errorf("%s serves resourceslices in versions whose fields differ (%s: %s and %s; %s: %s and %s): one policy cannot check both", s.About, versions[0], nodeField, driverField, v, node.Name, driver.Name)
		}
		versions = append(versions, v)
		nodeField, driverField = node.Name, driver.Name
	}
	if len(versions) == 0 {
		return nil, "", "", fmt.Errorf("%s serves no version of %s resourceslices that drakit knows (%s)", s.About, resource.GroupName, describeServed(s))
	}
	return versions, nodeField, driverField, nil
}
