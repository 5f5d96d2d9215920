package allocbench

import (
	resourceapi "k8s.io/api/resource/v1"
	apiresource "k8s.io/apimachinery/pkg/api/resource"

	"github.com/drakit/drakit/apis/resource"
)

// fromV1Allocation reads upstream's allocation result as a hub result, so
// that both allocators' results are compared, committed and verified
// alike. Every field upstream's allocator sets is copied.
func fromV1Allocation(r *resourceapi.AllocationResult) *resource.AllocationResult {
	out := &resource.AllocationResult{NodeSelector: r.NodeSelector.DeepCopy(), AllocationTimestamp: r.AllocationTimestamp.DeepCopy()}
	for _, d := range r.Devices.Results {
		out.Devices.Results = append(out.Devices.Results, resource.DeviceRequestAllocationResult{
			Request:     d.Request,
			Driver:      d.Driver,
			Pool:        d.Pool,
			Device:      d.Device,
			AdminAccess: copyPtr(d.AdminAccess),
			Tolerations: copyList(d.Tolerations, func(t resourceapi.DeviceToleration) resource.DeviceToleration {
				return resource.DeviceToleration{Key: t.Key, Operator: resource.DeviceTolerationOperator(t.Operator), Value: t.Value,
					Effect: resource.DeviceTaintEffect(t.Effect), TolerationSeconds: copyPtr(t.TolerationSeconds)}
			}),
			BindingConditions:        castList[string, string](d.BindingConditions),
			BindingFailureConditions: castList[string, string](d.BindingFailureConditions),
			ShareID:                  copyPtr(d.ShareID),
			ConsumedCapacity:         copyMap[resourceapi.QualifiedName, resource.QualifiedName](d.ConsumedCapacity, apiresource.Quantity.DeepCopy),
			SkipNodeOperations:       castList[resourceapi.SkipNodeOperation, resource.SkipNodeOperation](d.SkipNodeOperations),
		})
	}
	for _, c := range r.Devices.Config {
		cfg := resource.DeviceAllocationConfiguration{Source: resource.AllocationConfigSource(c.Source), Requests: castList[string, string](c.Requests)}
		if o := c.Opaque; o != nil {
			cfg.Opaque = &resource.OpaqueDeviceConfiguration{Driver: o.Driver, Parameters: *o.Parameters.DeepCopy()}
		}
		out.Devices.Config = append(out.Devices.Config, cfg)
	}
	return out
}
