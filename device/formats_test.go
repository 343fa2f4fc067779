package device

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// The devices writers: each format writes, any other is refused naming
// the formats it takes.
func TestWriteAs(t *testing.T) {
	d, err := Lookup("esp32")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		format, list, one string // the error of WriteListAs, WriteAs; "" for none
	}{
		{"table", "", `unknown --format "table": want text or json`},
		{"text", `unknown --format "text": want table or json`, ""},
		{"json", "", ""},
		{"yaml", `unknown --format "yaml": want table or json`, `unknown --format "yaml": want text or json`},
	} {
		var list, one bytes.Buffer
		if got := writeAsErrText(WriteListAs(&list, tc.format, All())); got != tc.list {
			t.Errorf("WriteListAs(%s) = %q, want %q", tc.format, got, tc.list)
		}
		if got := writeAsErrText(WriteAs(&one, tc.format, d)); got != tc.one {
			t.Errorf("WriteAs(%s) = %q, want %q", tc.format, got, tc.one)
		}
		if tc.format == "json" {
			var back Device
			if err := json.Unmarshal(one.Bytes(), &back); err != nil || back.Name != "esp32" {
				t.Errorf("WriteAs json: %v, name %q:\n%s", err, back.Name, one.String())
			}
			if !strings.HasPrefix(list.String(), "[\n  {") {
				t.Errorf("WriteListAs json is not an indented array:\n%.80s", list.String())
			}
		}
	}
}

func writeAsErrText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// Show resolves before it writes: a bad name is the error, whatever the
// format.
func TestShow(t *testing.T) {
	var b bytes.Buffer
	if err := Show(&b, "telosb", "", "text"); err != nil || !strings.HasPrefix(b.String(), "telosb — ") {
		t.Errorf("Show(telosb): %v\n%s", err, b.String())
	}
	if err := Show(&b, "no-such-device", "", "yaml"); err == nil || !strings.Contains(err.Error(), "unknown device") {
		t.Errorf("Show(no-such-device) = %v, want the lookup's error", err)
	}
}
