package costing

import (
	"fmt"
	"io"

	"github.com/cryptocost/cryptocost/device"
	"github.com/cryptocost/cryptocost/result"
)

// CheckCalibrate checks what `cryptocost calibrate` needs before it reads
// anything: the results file (--from) and whether a device was named.
func CheckCalibrate(from string, device bool) error {
	if from == "" {
		return fmt.Errorf("--from RESULTS.json is required: a cryptocost run (--format json) made on the device")
	}
	if !device {
		return fmt.Errorf("--device NAME or --device-file FILE is required: the device the run was made on")
	}
	return nil
}

// Calibrate stores the calibration run (read from the results file
// from) gives d, merged into d's calibration in dir (CalibrationIn: ""
// is the default place), and returns it and the file's path.
func Calibrate(d *device.Device, run *result.Run, from, dir string) (*Calibration, string, error) {
	cal, err := NewCalibration(d, run, from)
	if err != nil {
		return nil, "", err
	}
	if dir, err = CalibrationIn(dir); err != nil {
		return nil, "", err
	}
	path, err := SaveCalibration(dir, cal)
	if err != nil {
		return nil, "", err
	}
	return cal, path, nil
}

// WriteStored says on out what was calibrated from which run and where it
// is stored (path), and on warn each of the calibration's warnings.
func (c *Calibration) WriteStored(out, warn io.Writer, path string) {
	cpu := c.Environment.CPUModel
	if cpu == "" {
		cpu = "-"
	}
	fmt.Fprintf(out, "calibrated %s with %d times per operation from run %s (%s/%s, %s)\n", c.Device, len(c.Entries), c.RunID,
		c.Environment.OS, c.Environment.Arch, cpu)
	for _, w := range c.Warnings {
		fmt.Fprintf(warn, "warning: %s\n", w)
	}
	fmt.Fprintf(out, "stored in %s\n", path)
}
