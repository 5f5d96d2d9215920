package resource

import (
	"regexp"
	"strconv"
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
	return "device.driver == " + strconv.Quote(driver)
}

var driverSelectorPattern = regexp.MustCompile(`^device\.driver == ("(?:[^"\\]|\\.)*")$`)

// DriverFromSelector reports the driver name if sel is, to the letter, the
// selector DriverSelector would produce for it. Anything else, even an
// expression with the same meaning, is not recognised: conversion must be
// able to reproduce the expression exactly.
func DriverFromSelector(sel DeviceSelector) (string, bool) {
	if sel.CEL == nil {
		return "", false
	}
	m := driverSelectorPattern.FindStringSubmatch(sel.CEL.Expression)
	if m == nil {
		return "", false
	}
	driver, err := strconv.Unquote(m[1])
	if err != nil || DriverSelectorExpression(driver) != sel.CEL.Expression {
		return "", false
	}
	return driver, true
}
