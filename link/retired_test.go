package link

import (
	"strings"
	"testing"
)

// An old --link value is translated to the radio it meant.
func TestRadioMeant(t *testing.T) {
	bredr, err := Lookup("bt-classic")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ old, want string }{
		{"ble", "ble"},              // a radio profile's alias: itself
		{"bt-classic", bredr.Radio}, // a link's alias only: its radio
		{"no-such", "no-such"},      // neither: as given
	} {
		if got := RadioMeant(tc.old); got != tc.want {
			t.Errorf("RadioMeant(%q) = %q, want %q", tc.old, got, tc.want)
		}
	}
	err = RetiredFlag("bt-classic", "probe measures the real network path to the server")
	if want := "--link bt-classic: probe measures the real network path to the server: give --radio " + bredr.Radio + " (--link is"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("RetiredFlag = %v, want %q...", err, want)
	}
}
