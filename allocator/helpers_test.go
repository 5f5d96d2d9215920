package allocator

import (
	"github.com/drakit/drakit/internal/testobjects"
)

// Short names for the builders of package testobjects, which keep the
// inventories of these tests compact.
var (
	class           = testobjects.Class
	withClassConfig = testobjects.WithClassConfig
	attr            = testobjects.Attr
	dev             = testobjects.Device
	gpus            = testobjects.GPUs
	onNode          = testobjects.OnNode
	allNodes        = testobjects.AllNodes
	selecting       = testobjects.Selecting
	slice           = testobjects.Slice
	poolSlice       = testobjects.PoolSlice
	node            = testobjects.Node
	count           = testobjects.Count
	all             = testobjects.All
	admin           = testobjects.Admin
	sel             = testobjects.Selector
	req             = testobjects.Request
	claim           = testobjects.Claim
	withConstraint  = testobjects.WithConstraint
	withClaimConfig = testobjects.WithClaimConfig
	allocated       = testobjects.Allocated
	devicesOf       = testobjects.Results
)
