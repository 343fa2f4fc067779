package costing

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/cryptocost/cryptocost/device"
	"github.com/cryptocost/cryptocost/internal/atomicfile"
	"github.com/cryptocost/cryptocost/result"
)

// CalibrationSchema identifies the calibration file format.
const CalibrationSchema = "cryptocost/calibration/v1"

// Calibration is the times cryptocost measured running on a device
// (`cryptocost calibrate --device X --from results.json`): the device's own
// time per operation, preferred over any literature figure or estimate.
type Calibration struct {
	Schema  string    `json:"schema"`
	Device  string    `json:"device"`
	Updated time.Time `json:"updated"`
	// Source is the results file, RunID its run; Environment is where it
	// ran (goarch, CPU, kernel), kept so a reader can judge it.
	Source      string             `json:"source"`
	RunID       string             `json:"run_id"`
	Environment result.Environment `json:"environment"`
	Warnings    []string           `json:"warnings,omitempty"`
	Entries     []CalibrationEntry `json:"entries"`

	// file and content are where LoadCalibration read it and the bytes,
	// for the runs priced with it (result.Input).
	file    string
	content []byte
}

// CalibrationEntry is one subject's time on the device.
type CalibrationEntry struct {
	Subject    string    `json:"subject"` // result subject name: SCHEME@PROVIDER/OP[/SIZE]
	Scheme     string    `json:"scheme"`
	Provider   string    `json:"provider"`
	Operation  string    `json:"operation"`
	InputBytes int       `json:"input_bytes,omitempty"`
	MedianNs   float64   `json:"median_ns"`
	Samples    []float64 `json:"samples,omitempty"` // ns/op
	RunID      string    `json:"run_id"`
}

// Lookup returns the entry for subject, or nil (also on a nil c).
func (c *Calibration) Lookup(subject string) *CalibrationEntry {
	if c == nil {
		return nil
	}
	for i := range c.Entries {
		if c.Entries[i].Subject == subject {
			return &c.Entries[i]
		}
	}
	return nil
}

// Find returns the entry for op: the same scheme, operation and input size
// (the provider too when op names one), or nil (also on a nil c).
func (c *Calibration) Find(op Op) *CalibrationEntry {
	if c == nil {
		return nil
	}
	for i := range c.Entries {
		e := &c.Entries[i]
		if strings.EqualFold(e.Scheme, op.Scheme) && strings.EqualFold(e.Operation, op.Operation) && e.InputBytes == op.InputBytes &&
			(op.Provider == "" || strings.EqualFold(e.Provider, op.Provider)) {
			return e
		}
	}
	return nil
}

// nanos converts samples in seconds to nanoseconds (calibration files keep
// round 1's ns).
func nanos(s []float64) []float64 {
	if s == nil {
		return nil
	}
	out := make([]float64, len(s))
	for i, v := range s {
		out[i] = v * 1e9
	}
	return out
}

// emulatedCPU matches CPU models that cannot be the device's own when the
// run's goarch is an ARM, RISC-V or MIPS one: qemu-user passes the host's
// /proc/cpuinfo through, so an x86 model there means an emulated run.
var x86Model = regexp.MustCompile(`(?i)intel|amd|xeon|epyc|ryzen|core\(tm\)|x86`)

// NewCalibration checks that run was measured on a machine that can be
// the device (its goarch runs there) and keeps each result's time per
// operation. Runs measured under emulation are accepted with a warning:
// their times describe the emulator, not the device.
func NewCalibration(d *device.Device, run *result.Run, source string) (*Calibration, error) {
	if len(d.CPU.GOARCH) == 0 {
		return nil, fmt.Errorf("device %s (%s, %s) does not run cryptocost: Go has no port for it, so its times come from the literature (cryptocost devices show %s); calibrate a device that runs Linux, such as pi-zero-2w",
			d.Name, d.CPU.Model, d.CPU.Arch, d.Name)
	}
	env := run.Environment
	if !d.RunsGo(env.Arch) {
		return nil, fmt.Errorf("%s was measured on %s/%s, which is not %s (%s runs %s): calibrate with a run made on the device",
			source, env.OS, env.Arch, d.Name, d.Name, strings.Join(d.CPU.GOARCH, " or "))
	}
	c := &Calibration{Schema: CalibrationSchema, Device: d.Name, Updated: run.Finished.UTC(),
		Source: source, RunID: run.ID, Environment: env}
	if env.Arch != "amd64" && env.Arch != "386" && x86Model.MatchString(env.CPUModel) {
		c.Warnings = append(c.Warnings, fmt.Sprintf("the run reports CPU %q for goarch %s: it ran under emulation (qemu-user), so its times describe the emulator, not %s", env.CPUModel, env.Arch, d.Name))
	}
	if env.Virtual != "" {
		c.Warnings = append(c.Warnings, "the run was measured in a virtual machine ("+env.Virtual+")")
	}
	if run.Status != result.Complete {
		c.Warnings = append(c.Warnings, fmt.Sprintf("the run's status is %s: only its measured results are kept", run.Status))
	}
	for _, r := range run.Results {
		t := r.Metric("time")
		if r.Error != "" || t == nil || t.Label != result.Measured || t.Summary.Median <= 0 {
			continue
		}
		c.Entries = append(c.Entries, CalibrationEntry{Subject: r.Subject.Name, Scheme: r.Subject.Scheme,
			Provider: r.Subject.Provider, Operation: r.Subject.Operation, InputBytes: r.Subject.InputBytes,
			MedianNs: t.Summary.Median * 1e9, Samples: nanos(t.Samples), RunID: run.ID})
	}
	if len(c.Entries) == 0 {
		return nil, fmt.Errorf("%s has no measured times per operation (a bench run's results with a \"time\" metric): nothing to calibrate", source)
	}
	return c, nil
}

// Merge adds newer's entries to c, replacing those of the same subject.
func (c *Calibration) Merge(newer *Calibration) {
	for _, e := range newer.Entries {
		if old := c.Lookup(e.Subject); old != nil {
			*old = e
		} else {
			c.Entries = append(c.Entries, e)
		}
	}
	sort.Slice(c.Entries, func(i, j int) bool { return c.Entries[i].Subject < c.Entries[j].Subject })
	c.Updated, c.Source, c.RunID, c.Environment, c.Warnings = newer.Updated, newer.Source, newer.RunID, newer.Environment, newer.Warnings
}

// CalibrationDir is where calibrations are stored: $CRYPTOCOST_CALIBRATIONS,
// else cryptocost/calibrations in the user's configuration directory.
func CalibrationDir() (string, error) {
	if dir := os.Getenv("CRYPTOCOST_CALIBRATIONS"); dir != "" {
		return dir, nil
	}
	base, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("no place for calibrations (%v): set CRYPTOCOST_CALIBRATIONS or give --calibrations DIR", err)
	}
	return filepath.Join(base, "cryptocost", "calibrations"), nil
}

func calibrationPath(dir, device string) string { return filepath.Join(dir, device+".json") }

// CalibrationIn is dir, or CalibrationDir when dir is "" (no --calibrations).
func CalibrationIn(dir string) (string, error) {
	if dir != "" {
		return dir, nil
	}
	return CalibrationDir()
}

// StoredCalibration is the device's calibration in dir (CalibrationIn):
// nil, nil when there is none, or no place where calibrations are stored.
func StoredCalibration(dir, device string) (*Calibration, error) {
	d, err := CalibrationIn(dir)
	if err != nil {
		return nil, nil // no place for calibrations: none stored
	}
	return LoadCalibration(d, device)
}

// LoadCalibration reads the device's calibration from dir; nil, nil when
// there is none.
func LoadCalibration(dir, device string) (*Calibration, error) {
	p := calibrationPath(dir, device)
	data, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var c Calibration
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("%s: %v (delete it and calibrate again)", p, err)
	}
	if c.Schema != CalibrationSchema {
		return nil, fmt.Errorf("%s: schema %q, want %s (delete it and calibrate again)", p, c.Schema, CalibrationSchema)
	}
	c.file, c.content = p, data
	return &c, nil
}

// SaveCalibration merges c into the device's stored calibration in dir,
// writing atomically, and returns the file's path.
func SaveCalibration(dir string, c *Calibration) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("calibrations: %w", err)
	}
	merged, err := LoadCalibration(dir, c.Device)
	if err != nil {
		return "", err
	}
	if merged == nil {
		merged = c
	} else {
		merged.Merge(c)
	}
	data, err := json.MarshalIndent(merged, "", "  ")
	if err != nil {
		return "", err
	}
	p := calibrationPath(dir, c.Device)
	return p, atomicfile.WriteFile(p, append(data, '\n'))
}
