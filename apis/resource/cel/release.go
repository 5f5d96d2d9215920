package cel

import (
	"fmt"
	"sync"

	"github.com/google/cel-go/cel"
	"k8s.io/apimachinery/pkg/util/version"
	"k8s.io/apiserver/pkg/cel/environment"

	"github.com/drakit/drakit/apis/resource/catalogue"
	"github.com/drakit/drakit/apis/resource/cel/internal/simple"
	"github.com/drakit/drakit/apis/resource/features"
)

// release is a Kubernetes minor release 1.N whose selector environments
// this package reproduces: what its expressions see, which libraries they
// get and how they are held to limits. Supporting another release takes
// one more value of this type in releases; following a new release is
// changing the value of the one drakit follows (catalogue.Release), and
// this copy of k8s.io/apiserver with it.
type release struct {
	// minor is N.
	minor int
	// declarations are the ways the release declares its variables, one
	// per variant; variant picks the one new expressions get from the
	// gates (nil: always the first), stored expressions get storedVariant.
	declarations  func() []declaration
	variant       func(features.Gates) int
	storedVariant int
	// options are the release's additions to the base environment when
	// new expressions get variant v.
	options func(v int, decls []declaration) []environment.VersionedOptions
	// shape is how Input lays a device out for the release's programs.
	shape func(features.Gates) shape
	// flatCallCosts: every call of a library function costs one unit at
	// run time, as with cel-go's default estimator. A release's DRA
	// package that built its environment without "strict cost" did so;
	// otherwise calls cost what the Kubernetes cost model says.
	flatCallCosts bool
	// simpleGrammar parses a selector of the fast path's grammar for the
	// release (nil: the release has no fast path).
	simpleGrammar func(expression string) (*simple.Selector, bool)
	// limits: new expressions are held to SelectorMaxLength and to an
	// estimated cost of SelectorMaxCost, and derived attributes exist.
	// Releases before 1.32 had neither.
	limits bool

	envs []variantEnvs // by variant, built on first use
}

// variantEnvs are the two environments of one variant of a release.
type variantEnvs struct {
	once   sync.Once
	new    *cel.Env
	stored *cel.Env
	decls  []declaration
	err    error
}

// releases are the releases with selector environments, by minor.
var releases = func() map[int]*release {
	m := map[int]*release{}
	for _, r := range []*release{&namedResourcesSelectors, &v1alpha3Selectors, &deviceSelectors} {
		r.envs = make([]variantEnvs, len(r.declarations()))
		m[r.minor] = r
	}
	return m
}()

// releaseOf is the release of minor 1.N; 0 is the one drakit follows.
func releaseOf(minor int) (*release, error) {
	if minor == 0 {
		minor = catalogue.Release
	}
	if r := releases[minor]; r != nil {
		return r, nil
	}
	return nil, fmt.Errorf("drakit has no CEL environment of Kubernetes 1.%d", minor)
}

// variantFor is the variant new expressions get with the gates.
func (r *release) variantFor(g features.Gates) int {
	if r.variant == nil {
		return 0
	}
	return r.variant(g)
}

// compatibilityVersion is what the release's API server passes to the base
// environment for new expressions (environment.DefaultCompatibilityVersion
// of that release): the release before, so that an expression it accepts
// is understood after a downgrade by one release.
func (r *release) compatibilityVersion() *version.Version {
	return version.MajorMinor(1, uint(r.minor-1))
}

// env is the environment for new or stored expressions of variant v, with
// the declarations it sees: the variant's for new expressions,
// storedVariant's for stored ones.
func (r *release) env(v int, stored bool) (*cel.Env, declaration, error) {
	e := &r.envs[v]
	e.once.Do(func() { e.err = r.build(v, e) })
	if e.err != nil {
		return nil, declaration{}, e.err
	}
	if stored {
		return e.stored, e.decls[r.storedVariant], nil
	}
	return e.new, e.decls[v], nil
}

// build makes both environments of variant v. New expressions get the
// NewExpressions half of the base EnvSet of the compatibility version.
// Stored expressions get everything the release knows: for the release
// this copy of k8s.io/apiserver belongs to (the one drakit follows), the
// StoredExpressions half of the same EnvSet, which takes every option
// whatever its version or gate; for an older release the NewExpressions
// half as of the release itself, since the StoredExpressions half of a
// newer module holds more than that release's server offered.
func (r *release) build(v int, e *variantEnvs) error {
	e.decls = r.declarations()
	opts := r.options(v, e.decls)
	set, err := environment.MustBaseEnvSet(r.compatibilityVersion()).Extend(opts...)
	if err != nil {
		return fmt.Errorf("building the CEL environment of Kubernetes 1.%d: %w", r.minor, err)
	}
	e.new = set.NewExpressionsEnv()
	if r.minor == catalogue.Release {
		e.stored = set.StoredExpressionsEnv()
		return nil
	}
	own, err := environment.MustBaseEnvSet(version.MajorMinor(1, uint(r.minor))).Extend(opts...)
	if err != nil {
		return fmt.Errorf("building the stored-expressions CEL environment of Kubernetes 1.%d: %w", r.minor, err)
	}
	e.stored = own.NewExpressionsEnv()
	return nil
}
