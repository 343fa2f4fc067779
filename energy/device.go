package energy

import "github.com/cryptocost/cryptocost/device"

// The device profiles moved to package device; these names keep the
// callers that have not moved to package costing yet compiling.
type (
	Device    = device.Device
	Value     = device.Value
	Operation = device.Operation
	Battery   = device.Battery
	CPU       = device.CPU
)

var (
	Lookup   = device.Lookup
	Resolve  = device.Resolve
	LoadFile = device.LoadFile
	Parse    = device.Parse
	All      = device.All
	Names    = device.Names
	V        = device.V
)

func describe(v Value) string { return v.Quantity.String() }

func errUnknown(what string, v Value) error { return device.ErrUnknown(what, v) }
