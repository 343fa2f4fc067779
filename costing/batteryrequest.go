package costing

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/cryptocost/cryptocost/device"
	"github.com/cryptocost/cryptocost/measure"
	"github.com/cryptocost/cryptocost/result"
)

// BatteryRequest is energy battery's question as its flags ask it: every
// ALGO's OP on every device, once every Every. Check reads it before any
// work; Run answers it (AnswerBattery) for each device and algorithm.
type BatteryRequest struct {
	// Devices are built-in profiles by name (--device); DeviceFile is a
	// profile file (--device-file), asked about after them.
	Devices    []string
	DeviceFile string
	// Algos are registry schemes or the devices' literature operation
	// keys (--algo); Op is the operation (--op).
	Algos []string
	Op    string
	// Every is the period between operations (--every); OpTime, when
	// positive, the operation's time measured on the device (--op-time).
	Every, OpTime time.Duration
	// From is a run measured on this machine (--from), for estimates
	// scaled from its times.
	From string
	// Capacity replaces the profile's battery (--capacity: 2500mAh,
	// 10Wh), Usable the fraction of it the device can use (--usable);
	// UsableGiven says --usable was given, which needs --capacity.
	Capacity    string
	Usable      float64
	UsableGiven bool
	// NoEstimates refuses times scaled from another machine;
	// Calibrations is where calibrations are stored.
	NoEstimates  bool
	Calibrations string
	// Notes receives a line for each device and algorithm that could not
	// be answered when others were (nil: discarded).
	Notes io.Writer

	// Answers are what Run computed, for the text and Markdown formats
	// (WriteBatteryText, WriteBatteryMarkdown).
	Answers []*BatteryAnswer

	battery   *device.Battery
	reference *result.Run
}

// Check reads the request before any work: the question, the devices,
// the given battery, and the --from run.
func (b *BatteryRequest) Check() error {
	switch {
	case b.Every < 0:
		return fmt.Errorf("--every %v is negative: give the period between operations, such as 10m", b.Every)
	case b.OpTime < 0:
		return fmt.Errorf("--op-time %v is negative: give the operation's measured time, such as 12ms", b.OpTime)
	case len(b.Algos) == 0 || b.Op == "" || b.Every <= 0:
		return fmt.Errorf("give --algo ALGO, --op OP and --every PERIOD (such as --algo ECDSA-P256-SHA256 --op sign --every 10m)")
	case len(b.Devices) == 0 && b.DeviceFile == "":
		return fmt.Errorf("--device NAME or --device-file FILE is required (cryptocost devices lists them)")
	}
	if b.Capacity != "" {
		var err error
		if b.battery, err = device.GivenBattery(b.Capacity, b.Usable); err != nil {
			return err
		}
	} else if b.UsableGiven {
		return fmt.Errorf("--usable needs --capacity (the profile's battery has its own usable fraction)")
	}
	if b.Usable <= 0 || b.Usable > 1 {
		return fmt.Errorf("--usable %g: want a fraction in (0, 1]", b.Usable)
	}
	if b.From != "" {
		var err error
		if b.reference, err = result.ReadRunFile(b.From); err != nil {
			return err
		}
	}
	return nil
}

// Run answers the battery question for every device and algorithm, one
// result each. One that cannot be answered is noted (Notes) when others
// are; asked alone, its error is Run's.
func (b *BatteryRequest) Run(context.Context) (*result.Run, error) {
	devices, err := b.devices()
	if err != nil {
		return nil, err
	}
	out := measure.NewRun("battery")
	var errs []string
	for _, d := range devices {
		cal, err := StoredCalibration(b.Calibrations, d.Name)
		if err != nil {
			return nil, err
		}
		for _, algo := range b.Algos {
			a, err := AnswerBattery(BatteryQuery{Device: d, Algo: algo, Op: b.Op, Period: b.Every, OpTime: b.OpTime,
				Reference: b.reference, Calibration: cal, NoEstimates: b.NoEstimates, Battery: b.battery})
			if err != nil {
				if len(devices)*len(b.Algos) == 1 {
					return nil, err
				}
				errs = append(errs, fmt.Sprintf("%s %s: %v", d.Name, algo, err))
				continue
			}
			b.Answers = append(b.Answers, a)
			AddAnswerInputs(out, d, cal)
			out.Results = append(out.Results, b.given(a.Result()))
		}
	}
	if b.Notes != nil {
		for _, e := range errs {
			fmt.Fprintln(b.Notes, "not computed: "+e)
		}
	}
	if len(b.Answers) == 0 {
		return nil, fmt.Errorf("no battery life could be computed")
	}
	return out, nil
}

// devices resolves the devices asked about: each of Devices by name, then
// DeviceFile's profile.
func (b *BatteryRequest) devices() ([]*device.Device, error) {
	var ds []*device.Device
	for _, name := range b.Devices {
		d, err := device.Resolve(name, "")
		if err != nil {
			return nil, err
		}
		ds = append(ds, d)
	}
	if b.DeviceFile != "" {
		d, err := device.Resolve("", b.DeviceFile)
		if err != nil {
			return nil, err
		}
		ds = append(ds, d)
	}
	return ds, nil
}

// given records in r's parameters what the user gave beside the question
// (its period is there already): the battery (--capacity, --usable) and
// the operation's time (--op-time), so a run read later says what its
// answer was computed with.
func (b *BatteryRequest) given(r result.Result) result.Result {
	if b.Capacity != "" {
		r.Subject.Params["capacity"] = b.Capacity
		r.Subject.Params["usable"] = strconv.FormatFloat(b.Usable, 'g', -1, 64)
	}
	if b.OpTime > 0 {
		r.Subject.Params["op-time"] = b.OpTime.String()
	}
	return r
}

// Formats are energy battery's own formats of the answers Run computed,
// text (the default) and Markdown, beside the result package's.
func (b *BatteryRequest) Formats() []result.Format {
	return []result.Format{
		batteryFormat{"text", "one sentence per answer and how it was computed", func(w io.Writer) { WriteBatteryText(w, b.Answers) }},
		batteryFormat{"markdown", "a Markdown table of the answers", func(w io.Writer) { WriteBatteryMarkdown(w, b.Answers) }},
	}
}

// batteryFormat is one of Formats: it writes the answers, not the run.
type batteryFormat struct {
	name, description string
	write             func(io.Writer)
}

func (f batteryFormat) Name() string        { return f.name }
func (f batteryFormat) Description() string { return f.description }
func (f batteryFormat) Write(w io.Writer, _ ...*result.Run) error {
	f.write(w)
	return nil
}
