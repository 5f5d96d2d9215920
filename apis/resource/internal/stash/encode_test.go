package stash

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	corev1 "k8s.io/api/core/v1"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/randfill"

	"github.com/drakit/drakit/apis/resource"
)

// hardPieces are what hardString builds strings from: every class of byte
// that json-iterator treats apart (quotes, backslashes, each kind of control
// character, HTML characters, the JavaScript line separators, invalid and
// truncated UTF-8, multi-byte runes).
var hardPieces = []string{
	"a", "Z9", " ", "device.driver == \"x\"", `"`, `\`, `\"`, "/", "<", ">", "&", "&&", "'",
	"\u2028", "\u2029", "é", "😀", "\ufffd", "\ufeff",
	"\x00", "\x01", "\b", "\f", "\n", "\r", "\t", "\x1b", "\x1f", "\x7f",
	"\xff", "\xc3", "\xed\xa0\x80", "\xf0\x9f\x98", "\x80\x80",
}

// hardString is a random string, empty one time in five, that mixes
// hardPieces with single random bytes and randfill's own runes.
func hardString(c randfill.Continue) string {
	if c.Intn(5) == 0 {
		return ""
	}
	var b strings.Builder
	for n := 1 + c.Intn(6); n > 0; n-- {
		switch c.Intn(4) {
		case 0:
			b.WriteByte(byte(c.Intn(256)))
		case 1:
			b.WriteString(c.String(4))
		default:
			b.WriteString(hardPieces[c.Intn(len(hardPieces))])
		}
	}
	return b.String()
}

// oddQuantities are quantities as users write them: several keep their
// text, which is not the canonical form, and several need arbitrary
// precision.
var oddQuantities = []string{
	"0", "+1", "1.500", "100m", "1e3", "1E3", "1.5Gi", "1Ki", "0.1Ki", "1000Mi", "+0.5", "5e-3",
	"1Pi", "01", "-0.0001", "123456789012345678901234567890", "1.0000000000000000001", "-1n", "8Ei",
}

// encoderFiller is payloadFiller with the values that are hard to encode:
// strings of any bytes, pointers to nil lists, RawExtensions that are not
// compact, quantities in every form.
func encoderFiller(seed int64) *randfill.Filler {
	str := func(s *string, c randfill.Continue) { *s = hardString(c) }
	return payloadFiller(seed).Funcs(
		str,
		func(s *resource.QualifiedName, c randfill.Continue) { *s = resource.QualifiedName(hardString(c)) },
		func(s *resource.FullyQualifiedName, c randfill.Continue) {
			*s = resource.FullyQualifiedName(hardString(c))
		},
		func(s *resource.AllocationMode, c randfill.Continue) { *s = resource.AllocationMode(hardString(c)) },
		func(s *resource.DeviceAllocationMode, c randfill.Continue) {
			*s = resource.DeviceAllocationMode(hardString(c))
		},
		func(s *resource.AllocationConfigSource, c randfill.Continue) {
			*s = resource.AllocationConfigSource(hardString(c))
		},
		func(s *corev1.NodeSelectorOperator, c randfill.Continue) {
			*s = corev1.NodeSelectorOperator(hardString(c))
		},
		func(re *runtime.RawExtension, c randfill.Continue) {
			*re = runtime.RawExtension{}
			text, _ := json.Marshal(hardString(c)) // valid JSON, so that the round trip reads it
			switch c.Intn(7) {
			case 1:
				re.Raw = []byte(fmt.Sprintf(`{"kind":"Config","s":%s,"n":%d}`, text, c.Int63()))
			case 2:
				re.Raw = []byte(fmt.Sprintf("{ \"s\" : %s ,\n\t\"l\" : [ 1 , -2.5e3 , true , null , { } ] }", text))
			case 3:
				re.Raw = []byte(fmt.Sprintf("\n  [%d, %s]", c.Int63(), text)) // leading white space
			case 4:
				re.Raw = []byte(fmt.Sprintf(`{"s":%s}`+"\n", text)) // json-iterator drops the newline
			case 5:
				re.Raw = []byte([]string{`"<>&\u2028"`, "\"\u2028\u2029\"", `-0.5e-3`, `true`, `null`, `{}`}[c.Intn(6)])
			case 6:
				re.Raw = text
			}
		},
		func(q *apiresource.Quantity, c randfill.Continue) {
			formats := []apiresource.Format{apiresource.BinarySI, apiresource.DecimalSI, apiresource.DecimalExponent}
			switch c.Intn(5) {
			case 0: // canonical text, kept
				*q = apiresource.MustParse(apiresource.NewQuantity(c.Int63n(1<<40)-1<<39, apiresource.BinarySI).String())
			case 1: // no text kept: MarshalJSON computes it
				*q = *apiresource.NewQuantity(c.Int63()-c.Int63(), formats[c.Intn(len(formats))])
			case 2:
				*q = *apiresource.NewMilliQuantity(c.Int63n(1<<40)-1<<39, formats[c.Intn(len(formats))])
			case 3:
				*q = apiresource.MustParse(oddQuantities[c.Intn(len(oddQuantities))])
			case 4:
				*q = apiresource.Quantity{}
			}
		},
		// Unlike payloadFiller, also pointers to nil lists.
		func(l *[]resource.DeviceRequest, c randfill.Continue) { fillList(l, c) },
		func(l *[]resource.ResourceHandle, c randfill.Continue) { fillList(l, c) },
		func(l *[]resource.DeviceAttribute, c randfill.Continue) { fillList(l, c) },
	)
}

func fillList[T any](l *[]T, c randfill.Continue) {
	*l = nil
	if c.Intn(6) == 0 {
		return
	}
	*l = make([]T, c.Intn(3))
	for i := range *l {
		c.Fill(&(*l)[i])
	}
}

// checkEncoding encodes payload both ways and fails unless the result is
// the same: the same bytes, or both an error with the same words. It
// reports whether the payload encoded without an error.
func checkEncoding(t testing.TB, payload Payload, what string) bool {
	t.Helper()
	want, wantErr := codec.MarshalToString(payload)
	got, gotErr := encode(payload)
	switch {
	case wantErr != nil || gotErr != nil:
		if wantErr == nil || gotErr == nil || wantErr.Error() != gotErr.Error() {
			t.Fatalf("%s: error %v, json-iterator's is %v", what, gotErr, wantErr)
		}
		// appendPayload alone fails as well, with an error of its own.
		if _, err := appendPayload(nil, payload); err == nil {
			t.Fatalf("%s: appendPayload succeeds where json-iterator fails: %v", what, wantErr)
		}
		return false
	case got != want:
		t.Fatalf("%s: encoders disagree:\ngot  %q\nwant %q", what, got, want)
	}
	// Appending to something leaves that something alone.
	buf, err := appendPayload([]byte("prefix"), payload)
	if err != nil || string(buf) != "prefix"+want {
		t.Fatalf("%s: appending: %q, %v", what, buf, err)
	}
	return true
}

// TestEncoderMatchesJSONIterator fills every payload type at random (every
// field, nil and empty lists, pointers to both, strings of any bytes) and
// encodes it with the hand-written encoders and with json-iterator, which
// wrote every stash before them: the bytes must be the same. Every field
// that a payload can reach must have been written, so a field missing from
// encode.go fails here.
func TestEncoderMatchesJSONIterator(t *testing.T) {
	iterations := 2500
	if testing.Short() {
		iterations = 500
	}
	tested := 0
	for _, newPayload := range payloadTypes() {
		typ := reflect.TypeOf(newPayload()).Elem()
		seen := map[string]bool{}
		encoded := 0
		for i := 0; i < iterations; i++ {
			in := newPayload()
			encoderFiller(int64(i)).Fill(in)
			if !checkEncoding(t, in, fmt.Sprintf("%s seed %d", typ.Name(), i)) {
				continue
			}
			encoded++
			value, _ := encode(in)
			var tree interface{}
			if err := json.Unmarshal([]byte(value), &tree); err != nil {
				t.Fatalf("%s seed %d: not JSON: %v\n%s", typ.Name(), i, err, value)
			}
			jsonPaths(tree, "", seen)
		}
		if encoded < iterations {
			t.Errorf("%s: only %d of %d payloads encoded", typ.Name(), encoded, iterations)
		}
		want := map[string]bool{}
		typePaths(typ, "", want, nil)
		for path := range want {
			if !seen[path] {
				t.Errorf("%s: %s was never written", typ.Name(), path)
			}
		}
		tested++
	}
	if tested == 0 || tested != len(payloadTypes()) {
		t.Fatalf("tested %d payload types of %d", tested, len(payloadTypes()))
	}
}

var (
	rawExtensionType = reflect.TypeOf(runtime.RawExtension{})
	quantityType     = reflect.TypeOf(apiresource.Quantity{})
)

// typePaths adds to paths every member path that values of typ can have,
// as json tags name them: ".spec.requests[].name". Inlined structs add
// their members to the enclosing object's; values with a MarshalJSON of
// their own end a path.
func typePaths(typ reflect.Type, prefix string, paths map[string]bool, visiting []reflect.Type) {
	for typ.Kind() == reflect.Ptr || typ.Kind() == reflect.Slice {
		if typ.Kind() == reflect.Slice {
			prefix += "[]"
		}
		typ = typ.Elem()
	}
	if typ.Kind() != reflect.Struct || typ == rawExtensionType || typ == quantityType {
		return
	}
	for _, v := range visiting {
		if v == typ {
			panic("recursive type " + typ.String())
		}
	}
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case !f.IsExported() || name == "-":
		case f.Anonymous && name == "":
			typePaths(f.Type, prefix, paths, append(visiting, typ))
		default:
			paths[prefix+"."+name] = true
			typePaths(f.Type, prefix+"."+name, paths, append(visiting, typ))
		}
	}
}

// jsonPaths adds the member paths of a decoded JSON value to paths.
func jsonPaths(v interface{}, prefix string, paths map[string]bool) {
	switch v := v.(type) {
	case map[string]interface{}:
		for k, member := range v {
			paths[prefix+"."+k] = true
			jsonPaths(member, prefix+"."+k, paths)
		}
	case []interface{}:
		for _, elem := range v {
			jsonPaths(elem, prefix+"[]", paths)
		}
	}
}

// badObject is a runtime.Object that cannot be marshalled.
type badObject struct{ runtime.TypeMeta }

func (o *badObject) DeepCopyObject() runtime.Object { return &badObject{} }
func (o *badObject) GetObjectKind() schema.ObjectKind {
	return schema.EmptyObjectKind
}
func (o *badObject) MarshalJSON() ([]byte, error) { return nil, errors.New("bad object") }

// TestEncoderEdgeCases holds the hand-written encoders to json-iterator on
// the values where the two could part: omitempty against nil and empty
// lists and pointers to them, escapes, MarshalJSON output, errors.
func TestEncoderEdgeCases(t *testing.T) {
	str := func(s string) *string { return &s }
	boolean := func(b bool) *bool { return &b }
	i64 := func(v int64) *int64 { return &v }
	fqn := func(s string) *resource.FullyQualifiedName { n := resource.FullyQualifiedName(s); return &n }
	quantity := func(q apiresource.Quantity) *apiresource.Quantity { return &q }
	var allBytes strings.Builder
	for b := 0; b < 256; b++ {
		allBytes.WriteByte(byte(b))
	}
	hard := []string{
		"", allBytes.String(), `say "hi" \ bye`, "<a href='x'>&amp;</a> && ||", "line\u2028para\u2029end",
		"\xff\xfe invalid \xc3( \xed\xa0\x80 \xf0\x9f\x98", "é ü 日本 😀 \ufffd", "\x00\x01\b\f\n\r\t\x1f\x7f",
		`\u0041 not an escape`, "/", strings.Repeat("long \" ", 200),
	}
	opaque := func(raw string) []resource.DeviceClassConfiguration {
		return []resource.DeviceClassConfiguration{{DeviceConfiguration: resource.DeviceConfiguration{
			Opaque: &resource.OpaqueDeviceConfiguration{Driver: "d", Parameters: runtime.RawExtension{Raw: []byte(raw)}},
		}}}
	}
	object := func(o runtime.Object) []resource.DeviceClassConfiguration {
		return []resource.DeviceClassConfiguration{{DeviceConfiguration: resource.DeviceConfiguration{
			Opaque: &resource.OpaqueDeviceConfiguration{Parameters: runtime.RawExtension{Object: o}},
		}}}
	}
	attrs := func(a ...resource.DeviceAttribute) *[]resource.DeviceAttribute { return &a }
	nilRequests, nilHandles, nilAttrs := []resource.DeviceRequest(nil), []resource.ResourceHandle(nil), []resource.DeviceAttribute(nil)

	cases := map[string]Payload{
		"nil class":   (*Class)(nil),
		"nil claim":   (*Claim)(nil),
		"nil slice":   (*Slice)(nil),
		"nil payload": nil,
		"zero class":  &Class{},
		"zero claim":  &Claim{},
		"zero slice":  &Slice{},
		"negative v":  &Class{V: -1},
		"max v":       &Claim{V: math.MaxInt},
		"min v":       &Slice{V: math.MinInt},
		"empty lists": &Class{V: 1, Selectors: []resource.DeviceSelector{}, Config: []resource.DeviceClassConfiguration{}},
		"empty structs": &Class{V: 1, Selectors: []resource.DeviceSelector{{}, {CEL: &resource.CELDeviceSelector{}}},
			Config: []resource.DeviceClassConfiguration{{}}, ParametersRef: &resource.ResourceClassParametersReference{},
			StructuredParameters: boolean(false)},
		"pointer to nil requests":   &Claim{V: 1, Spec: &ClaimSpec{Requests: &nilRequests}},
		"pointer to empty requests": &Claim{V: 1, Spec: &ClaimSpec{Requests: &[]resource.DeviceRequest{}}},
		"empty request":             &Claim{V: 1, Spec: &ClaimSpec{Requests: &[]resource.DeviceRequest{{}, {Count: -1}}}},
		"empty spec and status":     &Claim{V: 1, Spec: &ClaimSpec{}, Status: &ClaimStatus{Allocation: &Allocation{}}},
		"pointer to nil handles": &Claim{V: 1, Status: &ClaimStatus{Allocation: &Allocation{
			ResourceHandles: &nilHandles, DerivedHandles: -3}}},
		"pointer to empty handles": &Claim{V: 1, Status: &ClaimStatus{Allocation: &Allocation{
			ResourceHandles: &[]resource.ResourceHandle{}, Devices: &resource.DeviceAllocationResult{}}}},
		"structured handles": &Claim{V: 1, Status: &ClaimStatus{Allocation: &Allocation{ResourceHandles: &[]resource.ResourceHandle{
			{StructuredData: &resource.StructuredResourceHandle{}},
			{StructuredData: &resource.StructuredResourceHandle{Results: []resource.DriverAllocationResult{}}},
			{StructuredData: &resource.StructuredResourceHandle{Results: []resource.DriverAllocationResult{{},
				{AllocationResultModel: resource.AllocationResultModel{NamedResources: &resource.NamedResourcesAllocationResult{}}}}}},
		}}}},
		"allocation config inlined": &Claim{V: 1, Status: &ClaimStatus{Allocation: &Allocation{Devices: &resource.DeviceAllocationResult{
			Config: []resource.DeviceAllocationConfiguration{{}, {Source: "FromClass", Requests: []string{"a", ""},
				DeviceConfiguration: resource.DeviceConfiguration{Opaque: &resource.OpaqueDeviceConfiguration{}}}},
			Results: []resource.DeviceRequestAllocationResult{{}, {Request: "r", Driver: "d", Pool: "p", Device: "x"}},
		}}}},
		"claim config inlined": &Claim{V: 1, Spec: &ClaimSpec{Config: []resource.DeviceClaimConfiguration{{}, {Requests: []string{}},
			{Requests: []string{"r"}, DeviceConfiguration: resource.DeviceConfiguration{Opaque: &resource.OpaqueDeviceConfiguration{}}}},
			Constraints: []resource.DeviceConstraint{{}, {Requests: []string{}, MatchAttribute: fqn("")}}}},
		"pointer to nil attributes":   &Slice{V: 1, Devices: []Device{{Attributes: &nilAttrs}}},
		"pointer to empty attributes": &Slice{V: 1, Devices: []Device{{}, {Attributes: attrs()}}},
		"empty slice lists": &Slice{V: 1, Devices: []Device{}, Pool: &resource.ResourcePool{Generation: math.MinInt64},
			NodeSelector: &corev1.NodeSelector{}},
		"node selector": &Slice{V: 1, NodeSelector: &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{},
			{MatchExpressions: []corev1.NodeSelectorRequirement{}, MatchFields: []corev1.NodeSelectorRequirement{{}, {Values: []string{}},
				{Key: "k", Operator: "In", Values: []string{"", "v"}}}}}}},
		"empty node selector terms": &Slice{V: 1, NodeSelector: &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{}}},
		"zero attribute values": &Slice{V: 1, Devices: []Device{{Attributes: attrs(
			resource.DeviceAttribute{},
			resource.DeviceAttribute{IntValue: i64(0), BoolValue: boolean(false), StringValue: str(""), VersionValue: str("")},
			resource.DeviceAttribute{IntValue: i64(math.MinInt64)}, resource.DeviceAttribute{IntValue: i64(math.MaxInt64)},
			resource.DeviceAttribute{IntSliceValue: &resource.IntSlice{}, StringSliceValue: &resource.StringSlice{}},
			resource.DeviceAttribute{IntSliceValue: &resource.IntSlice{Ints: []int64{}},
				StringSliceValue: &resource.StringSlice{Strings: []string{}}},
			resource.DeviceAttribute{IntSliceValue: &resource.IntSlice{Ints: []int64{0, -1, math.MinInt64}},
				StringSliceValue: &resource.StringSlice{Strings: []string{"", "x"}}},
		)}}},
		"raw with white space": &Class{V: 1, Config: opaque(" {\n\t\"a\" : [ 1 , 2 ] ,\r\n \"b\":{ } } ")},
		"raw trailing newline": &Class{V: 1, Config: opaque("{\"a\":1}\n")},
		"raw two newlines":     &Class{V: 1, Config: opaque("[1]\n\n")},
		"raw trailing crlf":    &Class{V: 1, Config: opaque("[1]\r\n")},
		"raw html and lines":   &Class{V: 1, Config: opaque("\"<>&\u2028\u2029\" ")},
		"raw not json":         &Class{V: 1, Config: opaque("{ not json")}, // written as it is
		"raw null":             &Class{V: 1, Config: opaque("null")},
		"raw cbor":             &Class{V: 1, Config: opaque("\xd9\xd9\xf7\xa1\x61\x61\x01")}, // {"a":1}, converted to JSON
		"raw object":           &Class{V: 1, Config: object(&metav1.Status{Status: "Failure", Message: "<&>"})},
		"bad object, then raw": &Class{V: 1, Config: append(object(&badObject{}), opaque("[2]")...)},
		"raw empty":            &Class{V: 1, Config: opaque("")},             // an error
		"raw unknown":          &Class{V: 1, Config: opaque("x")},            // an error
		"raw bad cbor":         &Class{V: 1, Config: opaque("\xd9\xd9\xf7")}, // an error
		"bad object":           &Class{V: 1, Config: object(&badObject{})},
		"two bad objects":      &Class{V: 1, Config: append(append(object(&badObject{}), opaque("[1]")...), opaque("x")...)},
		"bad handle raw": &Claim{V: 1, Status: &ClaimStatus{Allocation: &Allocation{ResourceHandles: &[]resource.ResourceHandle{
			{StructuredData: &resource.StructuredResourceHandle{VendorClaimParameters: runtime.RawExtension{Raw: []byte{}},
				Results: []resource.DriverAllocationResult{{VendorRequestParameters: runtime.RawExtension{Raw: []byte("y")}}}}}}}}},
	}
	// Raw and Object: Raw wins.
	both := opaque("[3]")
	both[0].Opaque.Parameters.Object = &badObject{}
	cases["raw wins over object"] = &Class{V: 1, Config: both}

	for i, q := range oddQuantities {
		cases[fmt.Sprintf("quantity %q", q)] = &Slice{V: 1, Devices: []Device{{Attributes: attrs(
			resource.DeviceAttribute{QuantityValue: quantity(apiresource.MustParse(q))})}}}
		cases[fmt.Sprintf("quantity %d", i)] = &Slice{V: 1, Devices: []Device{{Attributes: attrs(
			resource.DeviceAttribute{QuantityValue: apiresource.NewQuantity(int64(i)*1000-5000, apiresource.BinarySI)},
			resource.DeviceAttribute{QuantityValue: apiresource.NewMilliQuantity(int64(i)*1500, apiresource.DecimalSI)},
			resource.DeviceAttribute{QuantityValue: apiresource.NewScaledQuantity(int64(i)*7, apiresource.Scale(i-9))},
			resource.DeviceAttribute{QuantityValue: apiresource.NewQuantity(int64(i), "NoSuchFormat")},
		)}}}
	}
	cases["zero quantity"] = &Slice{V: 1, Devices: []Device{{Attributes: attrs(resource.DeviceAttribute{QuantityValue: &apiresource.Quantity{}})}}}
	big := apiresource.MustParse("123456789012345678901234567890")
	big.Add(apiresource.MustParse("1m"))
	cases["arbitrary-precision quantity"] = &Slice{V: 1, Devices: []Device{{Attributes: attrs(resource.DeviceAttribute{QuantityValue: &big})}}}

	for i, s := range hard {
		for j, p := range hardStringsPayloads(s, "", []byte("null")) {
			cases[fmt.Sprintf("strings %d in payload %d", i, j)] = p
		}
		for j, p := range hardStringsPayloads(s, s+"x", []byte(`{"s":"`+s+`"}`)) { // raw JSON or not
			cases[fmt.Sprintf("strings %d in raw in payload %d", i, j)] = p
		}
	}

	for name, p := range cases {
		t.Run(name, func(t *testing.T) {
			checkEncoding(t, p, name)
		})
	}
	// A quantity is encoded without changing it (String caches its text).
	q := apiresource.NewQuantity(1024, apiresource.BinarySI)
	before := *q
	checkEncoding(t, &Slice{Devices: []Device{{Attributes: attrs(resource.DeviceAttribute{QuantityValue: q})}}}, "quantity")
	if !reflect.DeepEqual(before, *q) {
		t.Errorf("encoding changed the quantity: %#v, was %#v", *q, before)
	}
}

// hardStringsPayloads are a payload of each type with s and t in every
// string field they reach, the quantity that s parses as (if it does and
// is short), and raw as every RawExtension's bytes.
func hardStringsPayloads(s, t string, raw []byte) []Payload {
	ext := runtime.RawExtension{Raw: raw}
	opaque := resource.DeviceConfiguration{Opaque: &resource.OpaqueDeviceConfiguration{Driver: s, Parameters: ext}}
	selectors := []resource.DeviceSelector{{CEL: &resource.CELDeviceSelector{Expression: s}}, {CEL: &resource.CELDeviceSelector{Expression: t}}}
	name := resource.FullyQualifiedName(t)
	class := &Class{V: 1, Selectors: selectors,
		Config:        []resource.DeviceClassConfiguration{{DeviceConfiguration: opaque}},
		ParametersRef: &resource.ResourceClassParametersReference{APIGroup: s, Kind: t, Name: s, Namespace: t}}
	requests := []resource.DeviceRequest{{Name: s, DeviceClassName: t, Selectors: selectors,
		AllocationMode: resource.DeviceAllocationMode(s), Count: int64(len(s))}}
	handles := []resource.ResourceHandle{{DriverName: s, Data: t}, {StructuredData: &resource.StructuredResourceHandle{
		VendorClassParameters: ext, VendorClaimParameters: ext, NodeName: s,
		Results: []resource.DriverAllocationResult{{VendorRequestParameters: ext,
			AllocationResultModel: resource.AllocationResultModel{NamedResources: &resource.NamedResourcesAllocationResult{Name: t}}}},
	}}}
	claim := &Claim{V: 1,
		Spec: &ClaimSpec{Requests: &requests,
			Constraints:    []resource.DeviceConstraint{{Requests: []string{s, t}, MatchAttribute: &name}},
			Config:         []resource.DeviceClaimConfiguration{{Requests: []string{t}, DeviceConfiguration: opaque}},
			Controller:     s,
			ParametersRef:  &resource.ResourceClaimParametersReference{APIGroup: t, Kind: s, Name: t},
			AllocationMode: resource.AllocationMode(t)},
		Status: &ClaimStatus{DriverName: t, Allocation: &Allocation{Controller: s, ResourceHandles: &handles,
			Devices: &resource.DeviceAllocationResult{
				Results: []resource.DeviceRequestAllocationResult{{Request: s, Driver: t, Pool: s, Device: t}},
				Config: []resource.DeviceAllocationConfiguration{{Source: resource.AllocationConfigSource(s), Requests: []string{t},
					DeviceConfiguration: opaque}}}}}}
	attrs := []resource.DeviceAttribute{{Name: resource.QualifiedName(s), StringValue: &t, VersionValue: &s,
		StringSliceValue: &resource.StringSlice{Strings: []string{s, t}}}}
	// Only short text, or text without an exponent, becomes a quantity:
	// apimachinery takes forever over an exponent beyond int32
	// ("1E2147483648"), which needs at least 12 bytes.
	if len(s) <= 10 || len(s) <= 64 && !strings.ContainsAny(s, "eE") {
		if q, err := apiresource.ParseQuantity(s); err == nil {
			attrs = append(attrs, resource.DeviceAttribute{Name: "q", QuantityValue: &q})
		}
	}
	slice := &Slice{V: 1, Pool: &resource.ResourcePool{Name: s},
		NodeSelector: &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{
			MatchExpressions: []corev1.NodeSelectorRequirement{{Key: s, Operator: corev1.NodeSelectorOperator(t), Values: []string{s, t}}},
			MatchFields:      []corev1.NodeSelectorRequirement{{Key: t, Operator: corev1.NodeSelectorOperator(s)}},
		}}},
		Devices: []Device{{Name: s, Attributes: &attrs}, {Index: 1, Name: t}}}
	return []Payload{class, claim, slice}
}

// FuzzEncoderMatchesJSONIterator puts fuzzed strings into the string fields
// of a payload of each type (and fuzzed bytes into its RawExtensions, and
// a quantity when the string parses as one): the hand-written encoders must
// write what json-iterator writes, or fail as it fails. go test runs the
// seeds; go test -fuzz explores.
func FuzzEncoderMatchesJSONIterator(f *testing.F) {
	for _, s := range hardPieces {
		f.Add(s, "t"+s, []byte(`{"a": "`+s+`"}`))
	}
	for _, q := range oddQuantities {
		f.Add(q, "", []byte("null"))
	}
	f.Add("", "", []byte{})
	f.Add("x", "\u2028", []byte("\xd9\xd9\xf7\xa1\x61\x61\x01"))
	f.Add("<&>", "\xff", []byte("[1]\n"))
	f.Fuzz(func(t *testing.T, s, u string, raw []byte) {
		for _, p := range hardStringsPayloads(s, u, raw) {
			checkEncoding(t, p, fmt.Sprintf("%q %q %q", s, u, raw))
		}
	})
}

// TestEncodeRoundTrip: what the encoders write, the decoders read back as
// it was, up to what JSON cannot tell apart: omitempty drops empty lists,
// a pointer to a nil list is null and reads as a nil pointer, and a
// RawExtension keeps only the JSON text (not white space around it, nor an
// Object). Quantities are equal when their value and text are.
func TestEncodeRoundTrip(t *testing.T) {
	iterations := 1000
	if testing.Short() {
		iterations = 200
	}
	opts := cmp.Options{
		cmpopts.EquateEmpty(),
		nilListPointer[resource.DeviceRequest](), nilListPointer[resource.ResourceHandle](), nilListPointer[resource.DeviceAttribute](),
		cmp.Comparer(func(a, b apiresource.Quantity) bool {
			ta, _ := a.MarshalJSON()
			tb, _ := b.MarshalJSON()
			return a.Cmp(b) == 0 && bytes.Equal(ta, tb)
		}),
		cmp.Comparer(func(a, b runtime.RawExtension) bool {
			ta, erra := a.MarshalJSON()
			tb, errb := b.MarshalJSON()
			return erra == nil && errb == nil && bytes.Equal(bytes.TrimSpace(ta), bytes.TrimSpace(tb))
		}),
	}
	for _, newPayload := range payloadTypes() {
		name := reflect.TypeOf(newPayload()).Elem().Name()
		for i := 0; i < iterations; i++ {
			in := newPayload()
			encoderFiller(int64(i)).Fill(in)
			value, err := encode(in)
			if err != nil {
				t.Fatalf("%s seed %d: %v", name, i, err)
			}
			out := newPayload()
			if err := decodePayload(value, out); err != nil {
				t.Fatalf("%s seed %d: decoding: %v\n%s", name, i, err, value)
			}
			if d := cmp.Diff(in, out, opts); d != "" {
				t.Fatalf("%s seed %d: read back differently (-written +read):\n%s\n%s", name, i, d, value)
			}
		}
	}
}

// nilListPointer makes a pointer to a nil list equal to a nil pointer.
func nilListPointer[T any]() cmp.Option {
	return cmp.Transformer("nilList", func(l *[]T) *[]T {
		if l != nil && *l == nil {
			return nil
		}
		return l
	})
}

// BenchmarkEncode compares the hand-written encoders with json-iterator on
// a payload of each type with every field filled.
func BenchmarkEncode(b *testing.B) {
	for _, newPayload := range payloadTypes() {
		p := newPayload()
		payloadFiller(1).NilChance(0).NumElements(2, 2).Fill(p)
		name := reflect.TypeOf(p).Elem().Name()
		value, err := codec.MarshalToString(p)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name+"/hand", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(value)))
			for i := 0; i < b.N; i++ {
				if _, err := encode(p); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/jsoniter", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(value)))
			for i := 0; i < b.N; i++ {
				if _, err := codec.MarshalToString(p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
