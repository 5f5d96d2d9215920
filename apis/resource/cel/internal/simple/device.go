package simple

import (
	"strings"
	"sync"

	"github.com/blang/semver/v4"
	apiresource "k8s.io/apimachinery/pkg/api/resource"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/internal/quantityguard"
)

// Device is what Match needs of a device. Keep one per device and reuse
// it: it remembers whether the device's CEL input can be built at all,
// which costs a look at every attribute, and its parsed versions. It is
// safe for concurrent use once Init has run.
type Device struct {
	driver string
	device *resource.Device

	// prepare writes modes and versions once; then they are only read.
	once     sync.Once
	modes    uint8 // bit m: the input of mode m can be built
	versions []parsedVersion
}

// Init prepares d for a device of the given driver. The device must not
// change afterwards.
func (d *Device) Init(driver string, device *resource.Device) {
	d.driver, d.device = driver, device
}

// Driver is the device's driver.
func (d *Device) Driver() string { return d.driver }

// Device is the device.
func (d *Device) Device() *resource.Device { return d.device }

// mode is which CEL input an answer must agree with.
type mode uint8

const (
	modeLegacy  mode = iota // 1.31's
	modeScalars             // the release followed's, without list attributes
	modeLists               // the release followed's, with list attributes
	numModes
)

// parsedVersion is the parsed VersionValue of an attribute, found by the
// pointer, which the attribute map's values share.
type parsedVersion struct {
	text *string
	v    semver.Version
	err  error
}

// IsNullList reports whether name is a v1alpha2 intSlice or stringSlice
// attribute whose list was null: a list attribute, whatever its values say.
func IsNullList(dev *resource.Device, name resource.QualifiedName) bool {
	if dev.NamedResources == nil {
		return false
	}
	for _, n := range dev.NamedResources.NullLists {
		if n == name {
			return true
		}
	}
	return false
}

// IsList reports whether the attribute holds a list (possibly empty, as a
// v1alpha2 intSlice or stringSlice may be).
func IsList(attr resource.DeviceAttribute) bool {
	return attr.IntValues != nil || attr.BoolValues != nil || attr.StringValues != nil || attr.VersionValues != nil
}

// HasScalar reports whether the attribute has a scalar value.
func HasScalar(attr resource.DeviceAttribute) bool {
	return attr.IntValue != nil || attr.BoolValue != nil || attr.StringValue != nil || attr.VersionValue != nil
}

// value is what the device's CEL input holds for the operand; false when
// it holds nothing there, a list, or a string too long to be sure that
// the evaluation stays within its cost limit.
func (d *Device) value(m mode, o simpleOperand) (simpleValue, bool) {
	var v simpleValue
	switch o.field {
	case fieldDriver:
		v = simpleValue{kind: kindString, s: d.driver}
	case fieldMultiAlloc:
		multi := d.device.AllowMultipleAllocations
		v = simpleValue{kind: kindBool, b: multi != nil && *multi}
	case fieldCapacity:
		q, found := d.capacity(m, &o)
		return simpleValue{kind: kindQuantity, q: q}, found
	case fieldAttribute:
		attr, found := d.attribute(m, &o)
		if !found {
			return v, false
		}
		var ok bool
		if v, ok = d.scalarOf(attr); !ok {
			return v, false
		}
	}
	return v, v.kind != kindString || len(v.s) <= simpleMaxString
}

// scalarOf is the value CEL sees of an attribute the input holds as a
// scalar: the first of IntValue, BoolValue, StringValue and VersionValue
// that is set, as both inputs take them.
func (d *Device) scalarOf(attr *resource.DeviceAttribute) (simpleValue, bool) {
	switch {
	case attr.IntValue != nil:
		return simpleValue{kind: kindInt, i: *attr.IntValue}, true
	case attr.BoolValue != nil:
		return simpleValue{kind: kindBool, b: *attr.BoolValue}, true
	case attr.StringValue != nil:
		return simpleValue{kind: kindString, s: *attr.StringValue}, true
	case attr.VersionValue != nil:
		v, err := d.parseVersion(attr.VersionValue)
		return simpleValue{kind: kindVersion, v: v}, err == nil
	}
	return simpleValue{}, false
}

// parseVersion is the parsed VersionValue, which prepare parsed (and
// cached) for every attribute; parsing again is only a fallback.
func (d *Device) parseVersion(text *string) (semver.Version, error) {
	for i := range d.versions {
		if p := &d.versions[i]; p.text == text {
			return p.v, p.err
		}
	}
	return semver.Parse(*text)
}

// attribute finds the attribute the device's CEL input has under domain
// and id; false when there is none, or when the input holds a list there.
func (d *Device) attribute(m mode, o *simpleOperand) (*resource.DeviceAttribute, bool) {
	dev := d.device
	q, hasQ := dev.Attributes[o.qualified]
	var u resource.DeviceAttribute
	hasU := false
	if o.domain == d.driver {
		u, hasU = dev.Attributes[o.unqualified]
	}
	if m == modeLegacy {
		// The 1.31 input holds an attribute's scalar, leaving out attributes
		// with only a list (and v1alpha2 null lists), and of the two
		// spellings keeps the one that sorts later.
		hasQ = hasQ && HasScalar(q) && !IsNullList(dev, o.qualified)
		hasU = hasU && HasScalar(u) && !IsNullList(dev, o.unqualified)
		switch {
		case hasQ && hasU:
			if o.qualified > o.unqualified {
				return &q, true
			}
			return &u, true
		case hasQ:
			return &q, true
		case hasU:
			return &u, true
		}
		return nil, false
	}
	// The release followed: the qualified name wins; lists are either left out (the
	// allocator drops them) or list values, which Match does not judge.
	if hasQ && IsList(q) {
		if m == modeLists {
			return nil, false
		}
		hasQ = false
	}
	if hasQ {
		return &q, true
	}
	if hasU && IsList(u) {
		return nil, false
	}
	return &u, hasU
}

// capacity finds the quantity the device's CEL input has under domain and
// id: of the two spellings of a name, 1.31's input keeps the one that
// sorts later, that of the release followed the qualified one.
func (d *Device) capacity(m mode, o *simpleOperand) (*apiresource.Quantity, bool) {
	dev := d.device
	q, hasQ := dev.Capacity[o.qualified]
	var u resource.DeviceCapacity
	hasU := false
	if o.domain == d.driver {
		u, hasU = dev.Capacity[o.unqualified]
	}
	switch {
	case hasQ && hasU && m == modeLegacy && o.unqualified > o.qualified:
		return &u.Value, true
	case hasQ:
		return &q.Value, true
	case hasU:
		return &u.Value, true
	}
	return nil, false
}

// usable reports whether the device's CEL input of mode m can be built:
// every attribute it holds has a value CEL can represent and every
// capacity is within the quantity bound. The 1.31 input and that of the
// release followed fail alike on an attribute without any value, on a
// version that does not parse and on a capacity beyond the bound, each
// looking only at the attributes it holds.
func (d *Device) usable(m mode) bool {
	d.once.Do(d.prepare)
	return d.modes&(1<<m) != 0
}

// prepare decides every mode's usability in one look at the capacities
// and one at the attributes (the first look at a device is most of the
// cost of a fresh allocator's first evaluation), parsing each
// VersionValue once so that Match only reads the device and its cache.
func (d *Device) prepare() {
	if d.device == nil || strings.Contains(d.driver, "/") {
		// No device, or a driver whose qualified names would split
		// elsewhere: not worth reasoning about.
		return
	}
	for _, c := range d.device.Capacity {
		// Every input refuses a capacity beyond the quantity bound.
		if quantityguard.CheckQuantity(c.Value) != nil {
			return
		}
	}
	usable := uint8(1<<numModes - 1)
	for name, attr := range d.device.Attributes {
		scalar, hasScalar, list := d.prepareScalar(attr), HasScalar(attr), IsList(attr)
		// 1.31: the scalar if there is one (a list beside it does not
		// save a scalar that cannot be represented), else a list or a
		// null list, which are left out.
		if !IsNullList(d.device, name) && (hasScalar && !scalar || !hasScalar && !list) {
			usable &^= 1 << modeLegacy
		}
		// The release followed: lists first, or none at all without
		// DRAListTypeAttributes.
		if !list {
			if !scalar {
				usable &^= 1<<modeScalars | 1<<modeLists
			}
		} else if attr.IntValues == nil && attr.BoolValues == nil && attr.StringValues == nil && !versionsParse(attr.VersionValues) {
			usable &^= 1 << modeLists
		}
	}
	d.modes = usable
}

// prepareScalar parses (and caches) the attribute's VersionValue and
// reports whether its scalar, the first of IntValue, BoolValue,
// StringValue and VersionValue that is set, can be represented in CEL.
func (d *Device) prepareScalar(attr resource.DeviceAttribute) bool {
	versionOK := false
	if text := attr.VersionValue; text != nil {
		v, err := semver.Parse(*text)
		d.versions = append(d.versions, parsedVersion{text: text, v: v, err: err})
		versionOK = err == nil
	}
	return attr.IntValue != nil || attr.BoolValue != nil || attr.StringValue != nil || versionOK
}

func versionsParse(versions []string) bool {
	for _, v := range versions {
		if _, err := semver.Parse(v); err != nil {
			return false
		}
	}
	return true
}
