package costing

import (
	"fmt"

	"github.com/cryptocost/cryptocost/result"
)

// CostRequest is energy cost's question: price the run in From, a results
// file written with --format json, on the device the command names.
type CostRequest struct {
	From string
	// DeviceGiven says a device was named (--device or --device-file).
	DeviceGiven bool
}

// Check reads the request before any work.
func (c CostRequest) Check() error {
	if c.From == "" {
		return fmt.Errorf("--from RESULTS.json is required: a run written with --format json")
	}
	if !c.DeviceGiven {
		return fmt.Errorf("--device NAME or --device-file FILE is required (cryptocost devices lists them)")
	}
	return nil
}

// Read reads the run to price.
func (c CostRequest) Read() (*result.Run, error) { return result.ReadRunFile(c.From) }
