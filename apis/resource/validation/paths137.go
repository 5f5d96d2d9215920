package validation

import "regexp"

// The kinds of v1beta1 and v1beta2 are validated in their v1 form (see
// registerViaV1). v1beta2 has v1's layout, so a v1 path is also its path;
// v1beta1 has two differences that a dropped field can sit behind (ga-facts
// section 4): a request's class, selectors, count, adminAccess,
// tolerations, capacity and derivedAttributes are on the request itself,
// not under "exactly", and a slice device's properties are under "basic".
// List indexes, map keys and every other step are the same in both.
var (
	// v1ExactlyStep matches a request's "exactly" step in a claim
	// (spec.devices) or template (spec.spec.devices).
	v1ExactlyStep = regexp.MustCompile(`^((?:spec\.)?spec\.devices\.requests\[\d+\])\.exactly(\.|$)`)
	// v1DeviceStep matches a slice device followed by one of its
	// properties.
	v1DeviceStep = regexp.MustCompile(`^(spec\.devices\[\d+\])\.`)
)

// v1PathInVersion turns a field path of a v1 object into the path of the
// same field in version's kind; paths of other versions and kinds are
// returned as they are.
func v1PathInVersion(version, kind, path string) string {
	if version != "v1beta1" {
		return path
	}
	switch kind {
	case "ResourceClaim", "ResourceClaimTemplate":
		return v1ExactlyStep.ReplaceAllString(path, "$1$2")
	case "ResourceSlice":
		return v1DeviceStep.ReplaceAllString(path, "$1.basic.")
	}
	return path
}
