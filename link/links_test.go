package link

import (
	"strings"
	"testing"

	"github.com/cryptocost/cryptocost/radio"
)

// Tier: fast. Every built-in link names its radio profile explicitly (or
// says it is wired), the radio exists and gives the link its technology,
// and every radio technology has a link to measure it over.
func TestLinksBoundToRadios(t *testing.T) {
	byTech := map[string][]string{}
	for _, l := range Profiles() {
		if l.File == "" {
			t.Errorf("%s: not read from a file", l.Name)
		}
		if l.Radio == "" {
			if l.Technology != "" {
				t.Errorf("%s: technology %s without a radio", l.Name, l.Technology)
			}
			continue
		}
		rp, err := radio.Lookup(l.Radio)
		if err != nil {
			t.Errorf("%s: its radio: %v", l.Name, err)
			continue
		}
		if rp.Name != l.Radio || rp.Technology != l.Technology {
			t.Errorf("%s: radio %s (%s) but technology %s", l.Name, rp.Name, rp.Technology, l.Technology)
		}
		byTech[l.Technology] = append(byTech[l.Technology], l.Name)
	}
	for _, tech := range radio.Technologies() {
		if len(byTech[tech]) == 0 {
			t.Errorf("radio technology %s has no link (add link/links/NN-%s.yaml with radio: a %s profile)", tech, tech, tech)
		}
	}
}

func TestParseNeedsARadio(t *testing.T) {
	const base = "name: test\ndescription: d\nlatency: \"1 ms [unverified]\"\n"
	for _, tc := range []struct{ data, want string }{
		{base, "radio: missing"},
		{base + "radio: nosuch\n", `unknown radio "nosuch"`},
		{base + "radio: lte-aro\nwired: true\n", "give one of radio: or wired: true"},
	} {
		if _, err := Parse("test.yaml", []byte(tc.data)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%q) = %v, want %q", tc.data, err, tc.want)
		}
	}
	p, err := Parse("test.yaml", []byte(base+"radio: lte\n"))
	if err != nil || p.Radio != "lte-aro" || p.Technology != "lte" {
		t.Errorf("radio by alias: %+v, %v", p, err)
	}
}
