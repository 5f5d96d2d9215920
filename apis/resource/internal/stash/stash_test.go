package stash

import (
	"errors"
	"strings"
	"testing"

	jsoniter "github.com/json-iterator/go"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/drakit/drakit/apis/resource"
)

func TestTotalAnnotationSizeLimitIsAPIMachinerys(t *testing.T) {
	if resource.TotalAnnotationSizeLimit != apivalidation.TotalAnnotationSizeLimitB {
		t.Errorf("resource.TotalAnnotationSizeLimit is %d, apimachinery's TotalAnnotationSizeLimitB %d",
			resource.TotalAnnotationSizeLimit, apivalidation.TotalAnnotationSizeLimitB)
	}
}

// TestWriteSizeLimit: Write accepts a stash that takes the annotations to
// the API server's limit exactly and refuses one byte more, counting as
// apimachinery's validation counts (every key and value, the stash's own
// included, an old stash left out).
func TestWriteSizeLimit(t *testing.T) {
	payload := &Claim{V: FormatVersion, Spec: &ClaimSpec{ResourceClaimSpec: resource.ResourceClaimSpec{Controller: "gpu.example.com"}}}
	value, err := codec.MarshalToString(payload)
	if err != nil {
		t.Fatal(err)
	}
	// The other annotations: a padding one, and an old stash, which Write
	// replaces and so must not count.
	const pad = "example.com/pad"
	room := resource.TotalAnnotationSizeLimit - len(resource.StashAnnotation) - len(value) - len(pad)
	for _, extra := range []int{0, 1} {
		meta := metav1.ObjectMeta{Name: "c", Namespace: "ns", Annotations: map[string]string{
			pad:                      strings.Repeat("x", room+extra),
			resource.StashAnnotation: strings.Repeat("y", 1000),
		}}
		before := meta.Annotations
		err := Write(&meta, "ResourceClaim", payload)
		if extra == 0 {
			if err != nil {
				t.Fatalf("at the limit: %v", err)
			}
			if meta.Annotations[resource.StashAnnotation] != value {
				t.Errorf("stash %q, want %q", meta.Annotations[resource.StashAnnotation], value)
			}
			if err := apivalidation.ValidateAnnotationsSize(meta.Annotations); err != nil {
				t.Errorf("apimachinery refuses what Write accepted: %v", err)
			}
			if before[resource.StashAnnotation] != strings.Repeat("y", 1000) {
				t.Errorf("Write changed the annotations map it was given")
			}
			continue
		}
		var tooLarge *resource.StashTooLargeError
		if !errors.As(err, &tooLarge) {
			t.Fatalf("one byte past the limit: got %v, want a *StashTooLargeError", err)
		}
		want := resource.StashTooLargeError{Kind: "ResourceClaim", Namespace: "ns", Name: "c",
			StashSize: len(value), TotalSize: resource.TotalAnnotationSizeLimit + 1, Limit: resource.TotalAnnotationSizeLimit}
		if *tooLarge != want {
			t.Errorf("got %+v, want %+v", *tooLarge, want)
		}
		meta.Annotations[resource.StashAnnotation] = value
		if apivalidation.ValidateAnnotationsSize(meta.Annotations) == nil {
			t.Errorf("apimachinery accepts what Write refused")
		}
		for _, s := range []string{`ResourceClaim "ns/c"`, resource.StashAnnotation, "262144"} {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("error %q does not name %s", err, s)
			}
		}
	}
}

// TestCodecMapIsEmpty: the codec writes omitempty maps as json-iterator
// alone does (left out when nil or empty, written when not), but finds a
// map empty without the allocations of json-iterator's iterator, two or
// more (mapLenExtension).
func TestCodecMapIsEmpty(t *testing.T) {
	plain := codecConfig.Froze() // the codec without mapLenExtension
	for _, capacity := range []map[resource.QualifiedName]apiresource.Quantity{
		nil, {}, {"memory": apiresource.MustParse("1Gi"), "cores": apiresource.MustParse("2")},
	} {
		v := resource.DeviceRequestAllocationResult{Request: "gpu", Driver: "example.com", Pool: "p", Device: "d", ConsumedCapacity: capacity}
		got, err := codec.MarshalToString(&v)
		if err != nil {
			t.Fatal(err)
		}
		want, err := plain.MarshalToString(&v)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("consumedCapacity %v:\ngot  %s\nwant %s", capacity, got, want)
		}
		if len(capacity) > 0 {
			continue
		}
		allocs := func(api jsoniter.API) float64 {
			return testing.AllocsPerRun(100, func() { _, _ = api.MarshalToString(&v) })
		}
		if withLen, without := allocs(codec), allocs(plain); withLen > without-2 {
			t.Errorf("consumedCapacity %v: the codec allocates %v times, json-iterator alone %v: want at least two fewer", capacity, withLen, without)
		}
	}
}
