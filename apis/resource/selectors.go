package resource

import (
	"strconv"
	"strings"
)

// DriverSelector returns the selector that admits exactly the devices of one
// driver. A v1alpha1/v1alpha2 class's driverName is stored in the hub as this
// selector, first in the class's list, so that the allocator and v1alpha3
// see one kind of selector only.
func DriverSelector(driver string) DeviceSelector {
	return DeviceSelector{CEL: &CELDeviceSelector{Expression: DriverSelectorExpression(driver)}}
}

// DriverSelectorExpression is the CEL text of DriverSelector.
func DriverSelectorExpression(driver string) string {
	// One allocation instead of two (the quoted name, then the sum): every
	// v1alpha1/v1alpha2 class converted to the hub builds this string.
	// Driver names are DNS subdomains, which need no escaping.
	if strings.ContainsAny(driver, "\\\"") || !isPlainASCII(driver) {
		return driverSelectorPrefix + strconv.Quote(driver)
	}
	var b strings.Builder
	b.Grow(len(driverSelectorPrefix) + len(driver) + 2)
	b.WriteString(driverSelectorPrefix)
	b.WriteByte('"')
	b.WriteString(driver)
	b.WriteByte('"')
	return b.String()
}

const driverSelectorPrefix = "device.driver == "

// DriverFromSelector reports the driver name if sel is, to the letter, the
// selector DriverSelector would produce for it. Anything else, even an
// expression with the same meaning, is not recognised: conversion must be
// able to reproduce the expression exactly.
func DriverFromSelector(sel DeviceSelector) (string, bool) {
	if sel.CEL == nil {
		return "", false
	}
	quoted, ok := strings.CutPrefix(sel.CEL.Expression, driverSelectorPrefix)
	if !ok || len(quoted) < 2 || quoted[0] != '"' || quoted[len(quoted)-1] != '"' {
		return "", false
	}
	if inner := quoted[1 : len(quoted)-1]; !strings.ContainsAny(inner, "\\\"") && isPlainASCII(inner) {
		return inner, true // the common case: nothing was escaped
	}
	driver, err := strconv.Unquote(quoted)
	if err != nil || DriverSelectorExpression(driver) != sel.CEL.Expression {
		return "", false
	}
	return driver, true
}

// isPlainASCII reports whether strconv.Quote leaves s as it is.
func isPlainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] >= 0x7f {
			return false
		}
	}
	return true
}
