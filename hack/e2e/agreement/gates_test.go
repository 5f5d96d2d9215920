package agreement

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"

	"k8s.io/client-go/rest"

	"github.com/drakit/drakit/apis/resource/features"
	"github.com/drakit/drakit/conversion"
)

// serverGates are the feature gates the server runs with, as it reports
// them itself in /metrics (kubernetes_feature_enabled, one sample per
// gate): what hack/e2e.sh passed in --feature-gates on top of the release's
// defaults, without a second copy of that list here.
type serverGates map[string]bool

var featureSample = regexp.MustCompile(`^kubernetes_feature_enabled\{name="([^"]+)",stage="[^"]*"\} ([01])$`)

func readServerGates(cfg *rest.Config) (serverGates, error) {
	client, err := rest.UnversionedRESTClientFor(withUnversioned(cfg))
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	raw, err := client.Get().AbsPath("/metrics").DoRaw(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading the server's /metrics for its feature gates: %w", err)
	}
	gates := serverGates{}
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if m := featureSample.FindStringSubmatch(sc.Text()); m != nil {
			gates[m[1]] = m[2] == "1"
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(gates) == 0 {
		return nil, fmt.Errorf("the server's /metrics has no kubernetes_feature_enabled samples")
	}
	return gates, nil
}

func withUnversioned(cfg *rest.Config) *rest.Config {
	c := rest.CopyConfig(cfg)
	c.GroupVersion = nil
	c.APIPath = "/"
	c.NegotiatedSerializer = conversion.Codecs.WithoutConversion()
	return c
}

// enabled reports whether the server runs with the gate on; a gate the
// server does not know (removed, or not yet added) is off.
func (g serverGates) enabled(name string) bool { return g[name] }

// dra returns the server's setting of every gate drakit knows, for
// validation.Options.
func (g serverGates) dra() (features.Gates, error) {
	out := features.Defaults()
	var missing []string
	for _, spec := range features.Known() {
		v, ok := g[string(spec.Name)]
		if !ok {
			missing = append(missing, string(spec.Name))
			continue
		}
		out = out.With(spec.Name, v)
	}
	if len(missing) > 0 {
		return out, fmt.Errorf("the server does not report the DRA feature gates %s", strings.Join(missing, ", "))
	}
	return out, nil
}
