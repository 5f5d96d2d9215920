package admissionconfig

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilvalidation "k8s.io/apimachinery/pkg/util/validation"

	"github.com/drakit/drakit/apis/resource"
)

// MatchPolicy is the matchPolicy of the webhook configuration and the
// policy drakit writes: Equivalent.
//
// They name every version the target serves, so a request in any of them
// reaches the webhook as the user sent it, and the errors' paths are the
// user's. Equivalent matters for the versions the configuration leaves
// out: a version the cluster's release serves that the configuration was
// not written for (an older drakit, a newer release, a version enabled
// after the fact). With Exact such a request skips the webhook and is
// stored unchecked: the silent hole of a configuration that lists only
// v1beta1 on a v1 cluster. With Equivalent the API server converts the
// request to a version the configuration names and calls the webhook
// with that, so nothing escapes, and the webhook never receives a version
// it does not understand; only the paths of such a request's errors are
// in the converted version's shape.
const MatchPolicy = admissionregistrationv1.Equivalent

// DefaultTimeoutSeconds is the webhook's timeout when none is given: the
// API server's default, well above what the check takes, and the
// failure policy is Fail, so a slow webhook refuses rather than admits.
const DefaultTimeoutSeconds = 10

// WebhookOptions say how the API server reaches the webhook.
type WebhookOptions struct {
	// Drivers are the driver names the webhook checks; the first names
	// the configuration and the webhook by default.
	Drivers []string
	// Name is the configuration's name; default "<driver>-opaque-config".
	Name string
	// WebhookName is the webhook's fully qualified name; default
	// "opaque-config.<driver>" (at least three DNS labels).
	WebhookName string
	// Service, or URL, is where the webhook listens.
	Service *admissionregistrationv1.ServiceReference
	URL     string
	// CABundle is the PEM bundle the API server verifies the webhook's
	// certificate with.
	CABundle []byte
	// TimeoutSeconds, 1 to 30; 0 is DefaultTimeoutSeconds.
	TimeoutSeconds int32
}

// ValidatingWebhookConfiguration is the configuration that sends every
// CREATE and UPDATE of an object that can hold opaque configuration
// (DeviceClasses, ResourceClaims, ResourceClaimTemplates; 1.30's
// ResourceClaimParameters and ResourceClassParameters) to the webhook, in
// exactly the versions s serves: one rule per set of versions that serve
// the same resources, so that no rule names a version with a resource it
// does not serve. failurePolicy Fail (an unreachable webhook refuses
// rather than admits), sideEffects None, admissionReviewVersions v1, and
// MatchPolicy (see there why Equivalent).
func ValidatingWebhookConfiguration(s *Served, o WebhookOptions) (*admissionregistrationv1.ValidatingWebhookConfiguration, error) {
	if len(o.Drivers) == 0 {
		return nil, fmt.Errorf("no driver name: the webhook configuration is named after the driver")
	}
	for _, d := range o.Drivers {
		if msgs := utilvalidation.IsDNS1123Subdomain(d); len(msgs) > 0 {
			return nil, fmt.Errorf("driver name %q: %s", d, strings.Join(msgs, "; "))
		}
	}
	name := o.Name
	if name == "" {
		name = o.Drivers[0] + "-opaque-config"
	}
	webhookName := o.WebhookName
	if webhookName == "" {
		webhookName = "opaque-config." + o.Drivers[0]
	}
	if len(strings.Split(webhookName, ".")) < 3 || len(utilvalidation.IsDNS1123Subdomain(webhookName)) > 0 {
		return nil, fmt.Errorf("webhook name %q: must be a fully qualified DNS name of at least three labels, as in opaque-config.gpu.example.com", webhookName)
	}
	clientConfig, err := clientConfig(o)
	if err != nil {
		return nil, err
	}
	timeout := o.TimeoutSeconds
	if timeout == 0 {
		timeout = DefaultTimeoutSeconds
	}
	if timeout < 1 || timeout > 30 {
		return nil, fmt.Errorf("timeout %ds: the API server allows 1 to 30 seconds", timeout)
	}
	rules := configRules(s)
	if len(rules) == 0 {
		return nil, fmt.Errorf("%s serves no %s resource that holds drivers' opaque configuration (%s); no webhook is needed", s.About, resource.GroupName, describeServed(s))
	}
	fail := admissionregistrationv1.Fail
	none := admissionregistrationv1.SideEffectClassNone
	policy := MatchPolicy
	return &admissionregistrationv1.ValidatingWebhookConfiguration{
		TypeMeta:   metav1.TypeMeta{APIVersion: admissionregistrationv1.SchemeGroupVersion.String(), Kind: "ValidatingWebhookConfiguration"},
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Webhooks: []admissionregistrationv1.ValidatingWebhook{{
			Name:                    webhookName,
			ClientConfig:            clientConfig,
			Rules:                   rules,
			FailurePolicy:           &fail,
			MatchPolicy:             &policy,
			SideEffects:             &none,
			TimeoutSeconds:          &timeout,
			AdmissionReviewVersions: []string{"v1"},
		}},
	}, nil
}

func clientConfig(o WebhookOptions) (admissionregistrationv1.WebhookClientConfig, error) {
	cc := admissionregistrationv1.WebhookClientConfig{CABundle: o.CABundle}
	switch {
	case o.Service != nil && o.URL != "":
		return cc, fmt.Errorf("give the webhook's service or its URL, not both")
	case o.Service != nil:
		if o.Service.Name == "" || o.Service.Namespace == "" {
			return cc, fmt.Errorf("the webhook's service needs a name and a namespace")
		}
		if o.Service.Path != nil && !strings.HasPrefix(*o.Service.Path, "/") {
			return cc, fmt.Errorf("the webhook's path %q must start with /", *o.Service.Path)
		}
		svc := *o.Service
		cc.Service = &svc
	case o.URL != "":
		u, err := url.Parse(o.URL)
		if err != nil || u.Scheme != "https" || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
			return cc, fmt.Errorf("webhook URL %q: the API server calls https://host[:port]/path URLs only (no user, query or fragment)", o.URL)
		}
		cc.URL = &o.URL
	default:
		return cc, fmt.Errorf("give the webhook's service (name, namespace, path) or its URL")
	}
	return cc, nil
}

// configRules are the rules of the webhook: for each served version, the
// resources that hold opaque configuration; versions that serve the same
// resources share a rule.
func configRules(s *Served) []admissionregistrationv1.RuleWithOperations {
	var rules []admissionregistrationv1.RuleWithOperations
	scope := admissionregistrationv1.AllScopes
	for _, v := range s.Versions() {
		res := s.ConfigResources(v)
		if len(res) == 0 {
			continue
		}
		i := slices.IndexFunc(rules, func(r admissionregistrationv1.RuleWithOperations) bool { return slices.Equal(r.Resources, res) })
		if i >= 0 {
			rules[i].APIVersions = append(rules[i].APIVersions, v)
			continue
		}
		rules = append(rules, admissionregistrationv1.RuleWithOperations{
			Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Create, admissionregistrationv1.Update},
			Rule: admissionregistrationv1.Rule{
				APIGroups:   []string{resource.GroupName},
				APIVersions: []string{v},
				Resources:   res,
				Scope:       &scope,
			},
		})
	}
	return rules
}

// describeServed writes s as "v1: deviceclasses, ...; v1beta2: ...".
func describeServed(s *Served) string {
	var parts []string
	for _, v := range s.Versions() {
		parts = append(parts, v+": "+strings.Join(s.Resources[v], ", "))
	}
	if len(parts) == 0 {
		return "no version"
	}
	return strings.Join(parts, "; ")
}
