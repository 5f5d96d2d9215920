package webhook_test

import (
	"strings"
	"testing"

	"github.com/drakit/drakit/cmd/drakit/internal/cmdtesting"
)

func TestMain(m *testing.M) { cmdtesting.Main(m) }

var ca = cmdtesting.InputFile("webhook-ca.crt")

func TestConfigGolden(t *testing.T) {
	svc := []string{"--service-namespace", "gpu", "--service-name", "gpu-webhook", "--ca-bundle-file", ca}
	var cases []cmdtesting.Case
	for _, release := range []string{"1.31", "1.33", "1.34", "1.37"} {
		cases = append(cases, cmdtesting.Case{
			Name: "webhook-config-" + release,
			Args: append([]string{"webhook", "config", "--driver", "gpu.example.com", "--release", release}, svc...),
		})
	}
	cases = append(cases,
		cmdtesting.Case{Name: "webhook-config-1.30-policy", Args: append([]string{"webhook", "config", "--driver", "gpu.example.com", "--release", "1.30", "--service-account", "gpu/gpu-kubelet-plugin"}, svc...)},
		cmdtesting.Case{Name: "webhook-config-1.37-policy-json", Args: []string{"webhook", "config", "--driver", "gpu.example.com", "--driver", "compute-domain.example.com", "--release", "1.37",
			"--url", "https://127.0.0.1:8443/validate", "--timeout-seconds", "5", "--service-account", "gpu/gpu-kubelet-plugin", "-o", "json"}},
		cmdtesting.Case{Name: "webhook-config-no-target", Args: []string{"webhook", "config", "--driver", "gpu.example.com", "--url", "https://x/"}},
		cmdtesting.Case{Name: "webhook-config-1.29", Args: []string{"webhook", "config", "--driver", "gpu.example.com", "--release", "1.29", "--url", "https://x/"}},
		cmdtesting.Case{Name: "webhook-config-bad-release", Args: []string{"webhook", "config", "--driver", "gpu.example.com", "--release", "1.38", "--url", "https://x/"}},
		cmdtesting.Case{Name: "webhook-config-no-service", Args: []string{"webhook", "config", "--driver", "gpu.example.com", "--release", "1.37"}},
		cmdtesting.Case{Name: "webhook-lint-1.37", Args: []string{"webhook", "lint", "-f", cmdtesting.InputFile("webhook-lint.yaml"), "--release", "1.37"}},
		cmdtesting.Case{Name: "webhook-lint-1.33", Args: []string{"webhook", "lint", "-f", cmdtesting.InputFile("webhook-lint.yaml"), "--release", "1.33"}},
		cmdtesting.Case{Name: "webhook-serve-bad-schemas", Args: []string{"webhook", "serve", "--schemas", cmdtesting.InputFile("webhook-schemas-bad.yaml"), "--tls-cert-file", ca, "--tls-private-key-file", ca}},
	)
	cmdtesting.Golden(t, cmdtesting.NewFactory(), cases)
}

// What drakit webhook config writes passes drakit webhook lint on the
// same release, for every release it writes for.
func TestConfigPassesLint(t *testing.T) {
	f := cmdtesting.NewFactory()
	for _, release := range []string{"1.30", "1.31", "1.32", "1.33", "1.34", "1.35", "1.36", "1.37"} {
		code, out, errOut := cmdtesting.Run(f, []string{"webhook", "config", "--driver", "gpu.example.com", "--release", release, "--url", "https://127.0.0.1/validate", "--service-account", "gpu/plugin"}, nil)
		if code != 0 {
			t.Fatalf("%s: config exit %d: %s", release, code, errOut)
		}
		code, lintOut, lintErr := cmdtesting.Run(f, []string{"webhook", "lint", "-f", "-", "--release", release}, []byte(out))
		if code != 0 || lintOut != "" || !strings.Contains(lintErr, "2 webhook configurations and policies checked") {
			t.Errorf("%s: lint exit %d:\n%s%s", release, code, lintOut, lintErr)
		}
	}
}

// The configuration of a release, linted against the next one, reports
// what the upgrade changes: 1.33's names v1alpha3, which 1.34 no longer
// serves for claims.
func TestConfigAcrossReleases(t *testing.T) {
	f := cmdtesting.NewFactory()
	_, out, _ := cmdtesting.Run(f, []string{"webhook", "config", "--driver", "gpu.example.com", "--release", "1.33", "--url", "https://127.0.0.1/validate"}, nil)
	code, lintOut, _ := cmdtesting.Run(f, []string{"webhook", "lint", "-f", "-", "--release", "1.34"}, []byte(out))
	if code != 0 {
		t.Errorf("exit %d: Equivalent still matches v1 through v1beta2: only warnings expected\n%s", code, lintOut)
	}
	if !strings.Contains(lintOut, "warning: ValidatingWebhookConfiguration gpu.example.com-opaque-config: webhooks[0].rules[0].apiVersions[2]: 1.34 does not serve deviceclasses in resource.k8s.io/v1alpha3") {
		t.Errorf("no warning for v1alpha3:\n%s", lintOut)
	}
}
