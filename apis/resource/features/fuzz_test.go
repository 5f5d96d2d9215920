package features

import (
	"testing"

	"github.com/go-logr/logr"
	"k8s.io/apimachinery/pkg/util/version"
	"k8s.io/component-base/featuregate"
)

type kubeFeatureGate interface {
	featuregate.MutableVersionedFeatureGate
	featuregate.MutableFeatureGateWithLogger
}

// kubeGate is Kubernetes' own feature gate (k8s.io/component-base, as a
// 1.37 kube-apiserver runs it) knowing exactly the gates of this package,
// with their stages, defaults, locks and dependencies.
func kubeGate(t *testing.T) kubeFeatureGate {
	t.Helper()
	emulated := version.MustParse("1.37")
	g := featuregate.NewVersionedFeatureGate(emulated)
	known := map[featuregate.Feature]featuregate.VersionedSpecs{}
	deps := map[featuregate.Feature][]featuregate.Feature{}
	for _, s := range Known() {
		spec := featuregate.FeatureSpec{Version: emulated, Default: s.Default, LockToDefault: s.LockedToDefault, PreRelease: featuregate.GA}
		switch s.Stage {
		case Alpha:
			spec.PreRelease = featuregate.Alpha
		case Beta:
			spec.PreRelease = featuregate.Beta
		}
		known[featuregate.Feature(s.Name)] = featuregate.VersionedSpecs{spec}
		for _, d := range s.DependsOn {
			deps[featuregate.Feature(s.Name)] = append(deps[featuregate.Feature(s.Name)], featuregate.Feature(d))
		}
	}
	if err := g.AddVersioned(known); err != nil {
		t.Fatal(err)
	}
	if err := g.AddDependencies(deps); err != nil {
		t.Fatal(err)
	}
	return g
}

// FuzzParseAgreesWithComponentBase parses --feature-gates values with
// Parse and with k8s.io/component-base's feature gate set up with the same
// gates: both accept or both refuse, and when they accept, every gate has
// the same state. Parse must not panic, and what it accepts must print
// (String) as a value that parses to the same gates.
//
//	go test ./apis/resource/features -run '^$' -fuzz '^FuzzParseAgreesWithComponentBase$' -fuzztime 1m
func FuzzParseAgreesWithComponentBase(f *testing.F) {
	for _, seed := range []string{
		"", ",", " , ", "=", "=true", "AllAlpha", "AllAlpha=true", "AllBeta=false",
		"AllAlpha=true,AllBeta=false,DRAPartitionableDevices=true",
		"DRAListTypeAttributes=true, DRAConsumableCapacity = false",
		"DRAPrioritizedList=false", "DRAPrioritizedList=true",
		"DRAAdminAccess=false,DRAAdminAccess=true",
		"DRAWorkloadResourceClaims=true", "DRAWorkloadResourceClaims=true,GenericWorkload=1",
		"DRAPartitionableDevicesType=T,DRAResourcePoolStatus=t",
		"DRAConsumableCapacity=false,DRAFractionalCapacityRange=true",
		"Unknown=true", "DRAListTypeAttributes=maybe", "dralisttypeattributes=true",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, flag string) {
		got, err := Parse(flag)
		kube := kubeGate(t)
		kubeErr := kube.SetWithLogger(logr.Discard(), flag)
		if (err == nil) != (kubeErr == nil) {
			t.Fatalf("--feature-gates %q: Parse says %v, component-base says %v", flag, err, kubeErr)
		}
		if err != nil {
			if err.Error() == "" {
				t.Fatalf("--feature-gates %q: an empty error", flag)
			}
			return
		}
		for _, s := range Known() {
			if got.Enabled(s.Name) != kube.Enabled(featuregate.Feature(s.Name)) {
				t.Errorf("--feature-gates %q: %s is %t, component-base has %t", flag, s.Name, got.Enabled(s.Name), kube.Enabled(featuregate.Feature(s.Name)))
			}
		}
		again, err := Parse(got.String())
		if err != nil || again != got {
			t.Fatalf("--feature-gates %q: String gives %q, which parses to %v, %v", flag, got.String(), again, err)
		}
	})
}
