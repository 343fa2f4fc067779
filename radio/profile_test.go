package radio

import (
	"fmt"
	"strings"
	"testing"
)

func TestBuiltinProfiles(t *testing.T) {
	ps := All()
	techs := map[string]bool{}
	for _, p := range ps {
		techs[p.Technology] = true
		if len(p.Params) == 0 || p.Description == "" || len(p.Sources) == 0 {
			t.Errorf("%s: empty params, description or sources", p.Name)
		}
		for _, q := range p.Params {
			if strings.TrimSpace(q.Quantity.Source) == "" {
				t.Errorf("%s: %s has no source", p.Name, q.Field)
			}
		}
	}
	for _, tech := range Technologies() {
		if !techs[tech] {
			t.Errorf("no built-in profile of technology %s", tech)
		}
	}
	// Values read in ARO's and EnergyBox's files are verified; recalled
	// ones and assumptions are marked.
	for name, unverified := range map[string]bool{"lte-aro": false, "umts-aro": false, "wifi-energybox": false,
		"lte-huang2012": true, "wifi-huang2012": true, "umts-energybox": true, "ble-nrf52840": true, "ieee802154-telosb": true} {
		p, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		if p.Unverified() != unverified {
			t.Errorf("%s: unverified = %v, want %v", name, p.Unverified(), unverified)
		}
	}
}

func TestLookup(t *testing.T) {
	for alias, name := range map[string]string{"LTE": "lte-aro", "3G": "umts-aro", "802.15.4": "ieee802154-telosb",
		"IEEE-802.15.4": "ieee802154-telosb", "wifi": "wifi-aro", "ble": "ble-nrf52840", "ble-251": "ble-nrf52840", "ble4.0": "ble-nrf52840-27", "cc2420": "ieee802154-telosb", "hsdpa": "umts-aro",
		"umts-energybox": "umts-energybox"} {
		p, err := Lookup(alias)
		if err != nil || p.Name != name {
			t.Errorf("Lookup(%q) = %v, %v; want %s", alias, p, err, name)
		}
	}
	_, err := Lookup("lt")
	if err == nil || !strings.Contains(err.Error(), `unknown radio "lt"`) || !strings.Contains(err.Error(), "did you mean lte-") {
		t.Errorf("Lookup(lt): %v", err)
	}
	if _, err := Lookup("5g"); err == nil || !strings.Contains(err.Error(), "radio list") {
		t.Errorf("Lookup(5g): %v", err)
	}
}

// lineOf returns the 1-based line of the first line of data containing s.
func lineOf(t *testing.T, data, s string) int {
	t.Helper()
	for i, l := range strings.Split(data, "\n") {
		if strings.Contains(l, s) {
			return i + 1
		}
	}
	t.Fatalf("%q not in the profile", s)
	return 0
}

// TestValidationErrors edits built-in profiles into inconsistent ones; each
// error must name the file, the line and the field.
func TestValidationErrors(t *testing.T) {
	for _, tc := range []struct {
		name, profile, old, new string
		field, msg              string // msg: part of the error after the field
	}{
		{"negative power", "umts-aro", `dch: "0.7 W`, `dch: "-0.7 W`, "params.power.dch", "is negative"},
		{"negative time", "lte-aro", `inactivity_timer: "0.1 s`, `inactivity_timer: "-0.1 s`, "params.inactivity_timer", "is negative"},
		{"tail shorter than a DRX cycle", "lte-aro", `duration: "10 s`, `duration: "0.03 s`, "params.long_drx.duration",
			"shorter than one DRX cycle"},
		{"on-duration longer than the cycle", "lte-aro", `on_duration: "2 ms [ARO T_DRX_PING]"
    on_power: "1.68 W [ARO P_LONG`, `on_duration: "50 ms [ARO T_DRX_PING]"
    on_power: "1.68 W [ARO P_LONG`, "params.long_drx.on_duration", "longer than the DRX cycle"},
		{"threshold larger than any window holds", "wifi-energybox", `threshold: "3000 B`, `threshold: "400000 B`,
			"params.cam_high.threshold", "larger than any window can hold: at 54 Mbit/s [802.11g] a 50 ms [EB-net CAM_TIME_WIMDOW] window carries at most 337500 B"},
		{"no source", "lte-aro", `beta: "1.2 W [ARO LTE_BETA]"`, `beta: "1.2 W"`, "params.transfer.beta", "has no source"},
		{"wrong unit", "lte-aro", `beta: "1.2 W`, `beta: "1.2 mA`, "params.transfer.beta", `unit "mA" is current, want power`},
		{"missing quantity", "umts-aro", `fach: "0.35 W [ARO POWER_FACH]"`, ``, "params.power.fach", "missing: want a power"},
		{"zero cycle", "lte-aro", `paging_cycle: "1.28 s`, `paging_cycle: "0 s`, "params.idle.paging_cycle", "must be above zero"},
		{"IDLE→FACH threshold without its promotion", "umts-aro", `fach_to_dch: "543 B [ARO RLC_UL_TH]"`,
			`fach_to_dch: "543 B [ARO RLC_UL_TH]"
      idle_to_fach: "1000 B [x]"`, "params.rlc.up.idle_to_fach", "given without promotion.idle_to_fach"},
		{"BLE payload above 251 B", "ble-nrf52840-27", `ll_payload: "27 B`, `ll_payload: "300 B`, "params.ll_payload", "exceeds the 251-byte"},
		{"BLE interval out of range", "ble-nrf52840-27", `connection_interval: "30 ms`, `connection_interval: "5 ms`,
			"params.connection_interval", "outside the 7.5 ms–4 s"},
		{"TinyOS payload beyond a frame", "ieee802154-telosb-tinyos", `max_payload: "102 B`, `max_payload: "115 B`,
			"params.tinyos.max_payload", "exceeds the 116 bytes"},
		{"fractional bytes", "umts-aro", `fach_to_dch: "475 B`, `fach_to_dch: "475.5 B`, "params.rlc.down.fach_to_dch", "not a whole number"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Lookup(tc.profile)
			if err != nil {
				t.Fatal(err)
			}
			data := string(p.Data)
			if !strings.Contains(data, tc.old) {
				t.Fatalf("%q not in %s", tc.old, tc.profile)
			}
			line := lineOf(t, data, strings.Split(tc.old, "\n")[0])
			// The text on the error's line, where it is not new's first line.
			at := map[string]string{"IDLE→FACH threshold without its promotion": `idle_to_fach: "1000 B [x]"`}[tc.name]
			switch {
			case at != "":
				line = lineOf(t, strings.Replace(data, tc.old, tc.new, 1), at)
			case tc.new != "":
				line = lineOf(t, strings.Replace(data, tc.old, tc.new, 1), strings.Split(tc.new, "\n")[0])
			}
			data = strings.Replace(data, tc.old, tc.new, 1)
			_, err = Load("bad.yaml", []byte(data))
			if err == nil {
				t.Fatal("loaded")
			}
			prefix := fmt.Sprintf("bad.yaml:%d: %s: ", line, tc.field)
			if tc.new == "" { // a missing field: the line of its parent
				prefix = "bad.yaml:"
			}
			if !strings.Contains(err.Error(), prefix) || !strings.Contains(err.Error(), tc.field+": ") || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("error:\n%v\nwant %q ... %q", err, prefix, tc.msg)
			}
		})
	}
}

func TestLoadErrors(t *testing.T) {
	for _, tc := range []struct{ data, want string }{
		{"name: x\ntechnology: 5g\n", `technology: unknown technology "5g": want one of ble, bredr, ieee802154, lorawan, lte, umts, wifi`},
		{"name: x\n", "technology: missing"},
		{"name: x\ntechnology: lte\nsources: [a]\nparams:\n  promotion:\n    tme: \"1 s [a]\"\n", "x.yaml:6: field tme not found"},
		// catalog reports a bad quantity with the file but (yaml.v3 drops it
		// for custom decoders) without the line.
		{"name: x\ntechnology: lte\nsources: [a]\nparams:\n  inactivity_timer: lots\n", `x.yaml:5: bad quantity "lots"`},
		{"technology: wifi\nparams: {}\n", "x.yaml:1: name: missing"},
		{"name: x\ntechnology: [\n", "x.yaml"},
	} {
		_, err := Load("x.yaml", []byte(tc.data))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Load(%q) = %v, want %q", tc.data, err, tc.want)
		}
	}
}

func TestDuplicateNames(t *testing.T) {
	a := &Profile{Name: "lte-a", Aliases: []string{"lte"}, File: "a.yaml"}
	b := &Profile{Name: "lte-b", Aliases: []string{"LTE"}, File: "b.yaml"}
	if _, err := index([]*Profile{a, b}); err == nil || !strings.Contains(err.Error(), `a.yaml and b.yaml both claim the name "LTE"`) {
		t.Errorf("duplicate alias: %v", err)
	}
	if _, err := index([]*Profile{a}); err != nil {
		t.Error(err)
	}
}

func TestUserProfileOverridesNothing(t *testing.T) {
	// A user's file is its own profile: loading it leaves the built-ins.
	p, _ := Lookup("lte")
	data := strings.Replace(string(p.Data), "name: lte-aro", "name: lte-mine", 1)
	data = strings.Replace(data, `duration: "10 s`, `duration: "5 s`, 1)
	mine, err := Load("mine.yaml", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	b, err := mine.Simulate(trace(pkt(0, up, 100)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := b.Time(Tail); got != ms(5120) || b.Profile != "lte-mine" {
		t.Errorf("user profile tail %v (%s)", got, b.Profile)
	}
	if p2, _ := Lookup("lte"); p2.Name != "lte-aro" {
		t.Errorf("lte is now %s", p2.Name)
	}
}
