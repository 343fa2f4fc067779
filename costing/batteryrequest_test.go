package costing

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Tier: fast. energy battery's request: Check's refusals, word for word
// what the command says, and what Run answers and records.

// question is a request every check accepts.
func question() BatteryRequest {
	return BatteryRequest{Devices: []string{"telosb"}, Algos: []string{"ECDSA-P256-SHA256"}, Op: "sign", Every: 10 * time.Minute, Usable: 1}
}

func TestBatteryRequestCheck(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(*BatteryRequest)
		want string
	}{
		{"negative period", func(b *BatteryRequest) { b.Every = -time.Minute }, "--every -1m0s is negative: give the period between operations, such as 10m"},
		{"negative op time", func(b *BatteryRequest) { b.OpTime = -time.Millisecond }, "--op-time -1ms is negative: give the operation's measured time, such as 12ms"},
		{"no algorithm", func(b *BatteryRequest) { b.Algos = nil }, "give --algo ALGO, --op OP and --every PERIOD (such as --algo ECDSA-P256-SHA256 --op sign --every 10m)"},
		{"no operation", func(b *BatteryRequest) { b.Op = "" }, "give --algo ALGO, --op OP and --every PERIOD (such as --algo ECDSA-P256-SHA256 --op sign --every 10m)"},
		{"no period", func(b *BatteryRequest) { b.Every = 0 }, "give --algo ALGO, --op OP and --every PERIOD (such as --algo ECDSA-P256-SHA256 --op sign --every 10m)"},
		{"no device", func(b *BatteryRequest) { b.Devices = nil }, "--device NAME or --device-file FILE is required (cryptocost devices lists them)"},
		{"bad capacity", func(b *BatteryRequest) { b.Capacity = "lots" }, `--capacity "lots": want a positive charge or energy such as 2500mAh, 3Ah or 10Wh`},
		{"usable without capacity", func(b *BatteryRequest) { b.Usable, b.UsableGiven = 0.5, true }, "--usable needs --capacity (the profile's battery has its own usable fraction)"},
		{"usable above one", func(b *BatteryRequest) { b.Capacity, b.Usable = "100mAh", 1.5 }, "--usable 1.5: want a fraction in (0, 1]"},
		{"usable zero", func(b *BatteryRequest) { b.Capacity, b.Usable = "100mAh", 0 }, "--usable 0: want a fraction in (0, 1]"},
		{"missing reference", func(b *BatteryRequest) { b.From = filepath.Join(t.TempDir(), "run.json") }, "--from: open "},
		{"device file alone", func(b *BatteryRequest) { b.Devices, b.DeviceFile = nil, "b.yaml" }, ""},
		{"given battery", func(b *BatteryRequest) { b.Capacity, b.Usable, b.UsableGiven = "100mAh", 0.8, true }, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := question()
			c.edit(&b)
			err := b.Check()
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("Check() = %v, want nil", err)
			case c.want != "" && (err == nil || !strings.HasPrefix(err.Error(), c.want)):
				t.Fatalf("Check() = %v, want %q", err, c.want)
			}
		})
	}
}

func TestBatteryRequestRun(t *testing.T) {
	file := filepath.Join(t.TempDir(), "b.yaml")
	if err := os.WriteFile(file, []byte(boardProfile), 0o644); err != nil {
		t.Fatal(err)
	}
	var notes bytes.Buffer
	b := question()
	b.Devices, b.DeviceFile, b.Notes = []string{"telosb", "s001-phone", "micaz"}, file, &notes
	b.Calibrations = t.TempDir()
	if err := b.Check(); err != nil {
		t.Fatal(err)
	}
	run, err := b.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// s001-phone and the board from the file have no time for the sign
	// without --op-time: noted, in the order asked (the file last), not
	// answered.
	if run.Kind != "battery" || len(run.Results) != 2 || len(b.Answers) != 2 {
		t.Fatalf("run %s with %d results, %d answers; want battery with 2; notes:\n%s", run.Kind, len(run.Results), len(b.Answers), notes.String())
	}
	for i, want := range []string{"telosb", "micaz"} {
		if got := run.Results[i].Subject.Params["device"]; got != want {
			t.Errorf("result %d on %s, want %s", i, got, want)
		}
	}
	lines := strings.Split(strings.TrimSuffix(notes.String(), "\n"), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "not computed: s001-phone ECDSA-P256-SHA256: ") ||
		!strings.HasPrefix(lines[1], "not computed: my-board ECDSA-P256-SHA256: ") {
		t.Errorf("notes:\n%s\nwant a line for s001-phone, then my-board", notes.String())
	}
	if len(run.Inputs) == 0 {
		t.Errorf("no inputs recorded")
	}

	// Asked alone, the answer's error is Run's.
	alone := question()
	alone.Devices = []string{"s001-phone"}
	if _, err := alone.Run(context.Background()); err == nil || !strings.Contains(err.Error(), "or give --op-time") {
		t.Errorf("Run() = %v, want the pricing error", err)
	}
	unknown := question()
	unknown.Devices = []string{"telosc"}
	if _, err := unknown.Run(context.Background()); err == nil || !strings.Contains(err.Error(), `unknown device "telosc"`) {
		t.Errorf("Run() = %v, want the unknown device", err)
	}
}

// TestBatteryRequestRecordsGiven: what the user gave beside the question
// (--capacity, --usable, --op-time) is in the result's parameters, and
// nothing of it when it was not given.
func TestBatteryRequestRecordsGiven(t *testing.T) {
	b := question()
	b.Devices, b.OpTime, b.Capacity, b.Usable = []string{"esp32"}, 50*time.Millisecond, "1000mAh", 0.8
	b.Calibrations = t.TempDir()
	if err := b.Check(); err != nil {
		t.Fatal(err)
	}
	run, err := b.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	p := run.Results[0].Subject.Params
	for k, want := range map[string]string{"capacity": "1000mAh", "usable": "0.8", "op-time": "50ms", "period": "10m0s"} {
		if p[k] != want {
			t.Errorf("params[%q] = %q, want %q", k, p[k], want)
		}
	}

	plain := question()
	plain.Calibrations = t.TempDir()
	run, err = plain.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"capacity", "usable", "op-time"} {
		if v, ok := run.Results[0].Subject.Params[k]; ok {
			t.Errorf("params[%q] = %q, not given", k, v)
		}
	}
}

func TestBatteryRequestFormats(t *testing.T) {
	b := question()
	b.Calibrations = t.TempDir()
	fs := b.Formats()
	if len(fs) != 2 || fs[0].Name() != "text" || fs[1].Name() != "markdown" {
		t.Fatalf("formats %v, want text and markdown", fs)
	}
	run, err := b.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var text, md bytes.Buffer
	if err := fs[0].Write(&text, run); err != nil || !strings.HasPrefix(text.String(), "One ECDSA-P256-SHA256 sign every 10min on TelosB") {
		t.Errorf("text (%v):\n%s", err, text.String())
	}
	if err := fs[1].Write(&md, run); err != nil || !strings.Contains(md.String(), "| telosb | ECDSA-P256-SHA256 sign | 10min |") {
		t.Errorf("markdown (%v):\n%s", err, md.String())
	}
}

func TestCostRequestCheck(t *testing.T) {
	for _, c := range []struct {
		req  CostRequest
		want string
	}{
		{CostRequest{DeviceGiven: true}, "--from RESULTS.json is required: a run written with --format json"},
		{CostRequest{From: "run.json"}, "--device NAME or --device-file FILE is required (cryptocost devices lists them)"},
		{CostRequest{From: "run.json", DeviceGiven: true}, ""},
	} {
		err := c.req.Check()
		if (c.want == "" && err != nil) || (c.want != "" && (err == nil || err.Error() != c.want)) {
			t.Errorf("%+v.Check() = %v, want %q", c.req, err, c.want)
		}
	}
	if _, err := (CostRequest{From: filepath.Join(t.TempDir(), "run.json")}).Read(); err == nil || !strings.HasPrefix(err.Error(), "--from: ") {
		t.Errorf("Read() of a missing file = %v", err)
	}
}
